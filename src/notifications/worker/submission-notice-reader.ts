// The submissions claimed deliveries are about, as a channel describes them: read in one
// go for a claimed batch, with the name and account of their forms, and a signed download
// link in each of their stored files (docs/files.md).
import { Injectable } from '@nestjs/common';
import { DownloadLinks } from '../../files/downloads/download-links.js';
import {
  mayHoldFiles,
  withDownloadLinks,
} from '../../files/downloads/file-links.js';
import { StoredFileRepository } from '../../files/stored-file.repository.js';
import { FormRepository } from '../../forms/form.repository.js';
import { SubmissionRepository } from '../../submissions/submission.repository.js';
import { toDate } from '../../common/database/sql-dates.js';
import { toData } from '../../submissions/queries/submission-rows.js';
import type { SubmissionNotice } from '../notification-channel.js';

@Injectable()
export class SubmissionNoticeReader {
  constructor(
    private readonly submissions: SubmissionRepository,
    private readonly forms: FormRepository,
    private readonly files: StoredFileRepository,
    private readonly links: DownloadLinks,
  ) {}

  /** By submission id; a deleted one (or one whose form is gone) is absent. */
  async of(
    submissionIds: readonly string[],
  ): Promise<Map<string, SubmissionNotice>> {
    const found = new Map<string, SubmissionNotice>();
    const ids = [...new Set(submissionIds)];
    if (ids.length === 0) return found;
    const rows = await this.submissions.findMany(ids);
    const forms = await this.forms.summaries(rows.map((row) => row.formId));
    const data = new Map(rows.map((row) => [row.id, toData(row.data)]));
    // Only submissions with a value shaped like a file cost a lookup.
    const files = await this.files.idsBySubmission(
      rows.flatMap((row) => (mayHoldFiles(data.get(row.id)!) ? [row.id] : [])),
    );
    const now = new Date();
    for (const row of rows) {
      const form = forms.get(row.formId);
      if (form === undefined) continue;
      found.set(row.id, {
        id: row.id,
        formId: row.formId,
        formName: form.name,
        accountId: form.accountId,
        createdAt: toDate(row.createdAt),
        data: withDownloadLinks(
          data.get(row.id)!,
          files.get(row.id),
          this.links,
          now,
        ),
        meta: { ip: row.ip, userAgent: row.userAgent, origin: row.origin },
      });
    }
    return found;
  }
}

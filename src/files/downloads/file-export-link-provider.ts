// The download links a CSV export shows for uploaded files (docs/files.md): signed links
// valid 7 days from the export, so whoever opens the spreadsheet can open the file, only
// for files stored for that very submission. Provided to the submissions feature as
// EXPORT_FILE_LINKS.
import { Injectable } from '@nestjs/common';
import type {
  ExportFileLinks,
  FileLinksBySubmission,
} from '../../submissions/export/export-file-links.js';
import { toData } from '../../submissions/queries/submission-rows.js';
import { DownloadLinks } from './download-links.js';
import { mayHoldFiles } from './file-links.js';
import { StoredFileRepository } from '../stored-file.repository.js';

/** Stored JSON holds a file only where it names a `sha256`: other rows cost no parse. */
function mayNameFiles(data: unknown): boolean {
  if (typeof data === 'string' && !data.includes('"sha256"')) return false;
  return mayHoldFiles(toData(data));
}

@Injectable()
export class FileExportLinkProvider implements ExportFileLinks {
  constructor(
    private readonly files: StoredFileRepository,
    private readonly links: DownloadLinks,
  ) {}

  async linksOf(
    rows: ReadonlyArray<{ id: string; data: unknown }>,
  ): Promise<FileLinksBySubmission> {
    const ids = rows.filter((row) => mayNameFiles(row.data)).map((r) => r.id);
    const found = new Map<string, Map<string, string>>();
    if (ids.length === 0) return found;
    const stored = await this.files.idsBySubmission(ids);
    const now = new Date();
    for (const [submissionId, fileIds] of stored) {
      found.set(
        submissionId,
        new Map([...fileIds].map((id) => [id, this.links.url(id, now)])),
      );
    }
    return found;
  }
}

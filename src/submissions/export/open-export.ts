// Opens a streamed export of a form's submissions: chooses the columns and the encoding
// of the format, reads the first batch, and hands back a stream that reads the rest as
// the consumer pulls.
import { Readable } from 'node:stream';
import type { Form } from '../../forms/form.entity.js';
import type { ExportFormat } from '../dto/export-submissions-query.dto.js';
import {
  parseFilters,
  type SubmissionFilterInput,
} from '../queries/submission-filters.js';
import { ALL_COLUMNS } from '../submission-sql.js';
import type { SubmissionRepository } from '../submission.repository.js';
import type { SubmissionRow } from '../queries/submission-rows.js';

/** What an export reads of the inbox (InboxService and LabelsService). */
export interface ExportInbox {
  fieldsOf(
    rows: readonly SubmissionRow[],
  ): Promise<ReadonlyMap<string, ExportInboxFields>>;
  labelId(form: Form, name: string): Promise<string | undefined>;
}
import { csvRow } from './csv.js';
import type {
  ExportFileLinks,
  FileLinksBySubmission,
} from './export-file-links.js';
import { exportFilename } from './export-filename.js';
import {
  csvLine,
  CSV_COLUMNS,
  exportChunks,
  firstBatch,
  keysInOrder,
  ndjsonLine,
  CSV_INBOX_HEADER,
  type ExportInboxFields,
  type ExportPlan,
} from './submission-export.js';

export interface ExportSubmissionsQuery extends SubmissionFilterInput {
  format?: ExportFormat;
  /** CSV only: a leading UTF-8 byte order mark, which Excel needs to read UTF-8. */
  bom?: boolean;
}

/** U+FEFF, written as the UTF-8 bytes EF BB BF. */
export const UTF8_BOM = '\uFEFF';

export interface SubmissionExport {
  /** The file, produced batch by batch as it is read; destroy it to stop early. */
  stream: Readable;
  contentType: string;
  filename: string;
}

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
};

/**
 * Opens a streamed export, newest first, with the list's filters. The first batch is
 * read before this resolves, so a database failure still becomes an error response;
 * the rest is read batch by batch as the consumer pulls (keyset queries, never
 * OFFSET), and destroying the stream stops the reading.
 */
export async function openExport(
  submissions: SubmissionRepository,
  form: Form,
  query: ExportSubmissionsQuery = {},
  fileLinks?: ExportFileLinks,
  inbox?: ExportInbox,
): Promise<SubmissionExport> {
  const format = query.format ?? 'csv';
  const filters = parseFilters(query);
  if (query.label !== undefined && query.label !== '' && inbox) {
    filters.labelId = (await inbox.labelId(form, query.label)) ?? '-';
  }
  // The inbox's fields of the batch being encoded (assignee, labels, notes).
  let fields: ReadonlyMap<string, ExportInboxFields> = new Map();
  const readFields = async (rows: readonly SubmissionRow[]) => {
    if (inbox) fields = await inbox.fieldsOf(rows);
  };
  let plan: ExportPlan;
  if (format === 'csv') {
    const columns =
      form.fields.length > 0
        ? form.fields.map((field) => field.id)
        : await keysInOrder(submissions, form.id, filters);
    // The links of the batch being encoded; read per batch, only where files are.
    let links: FileLinksBySubmission = new Map();
    plan = {
      formId: form.id,
      filters,
      columns: CSV_COLUMNS,
      header:
        (query.bom ? UTF8_BOM : '') +
        csvRow(['id', 'createdAt', ...columns, ...CSV_INBOX_HEADER]),
      beforeBatch: async (rows) => {
        await readFields(rows);
        if (fileLinks !== undefined) links = await fileLinks.linksOf(rows);
      },
      encode: (row) =>
        csvLine(row, columns, links.get(row.id), fields.get(row.id)),
    };
  } else {
    plan = {
      formId: form.id,
      filters,
      columns: ALL_COLUMNS,
      header: '',
      beforeBatch: readFields,
      encode: (row) => ndjsonLine(row, fields.get(row.id)),
    };
  }
  const first = await firstBatch(submissions, plan);
  return {
    stream: Readable.from(
      exportChunks(submissions, plan, first),
      // Strings go to the socket as they are (Node encodes them into memory it
      // frees once written, not into Buffers waiting for a GC); a few chunks are
      // read ahead.
      { objectMode: true, highWaterMark: 4 },
    ),
    contentType: CONTENT_TYPES[format],
    filename: exportFilename(form.name, format),
  };
}

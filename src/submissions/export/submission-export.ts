// The body of a streamed export: header and rows, encoded batch by batch as the
// consumer pulls. Each batch (a query and its encoding) is one turn on the event loop,
// so any number of concurrent exports leave the server answering other requests.
import { takeTurn } from '../../common/event-loop-turns.js';
import type { SubmissionPosition } from '../cursor.js';
import type { SubmissionFilters } from '../submission-filters.js';
import {
  isoTime,
  resumeAfter,
  toData,
  type RowBatch,
  type SubmissionRow,
} from '../submission-rows.js';
import type { SubmissionRepository } from '../submission.repository.js';
import { csvRow } from './csv.js';

/**
 * Rows per query while exporting. Small on purpose: a batch lives across the await of
 * its query, so whatever a young-generation GC finds alive gets promoted to the old
 * generation. With 2,000-row batches a 1M-row export grew the heap by ~70 MB of
 * promoted garbage before a full GC; with 500 the process stays within ~10 MB of idle.
 * It also keeps one turn on the event loop (read + encode) to a few milliseconds.
 */
export const EXPORT_BATCH_SIZE = 500;
/**
 * Output is handed on in chunks of about this many characters: well below V8's
 * large-object threshold (~128 KB), since large strings are freed only by a full GC
 * and 1M rows of them piled up ~40 MB before one ran.
 */
export const EXPORT_CHUNK_CHARS = 32 * 1024;
/** A CSV of a form without configured fields gets at most this many value columns. */
export const MAX_CSV_COLUMNS = 1000;

/** What a CSV export reads from a row. */
export const CSV_COLUMNS: ReadonlyArray<keyof SubmissionRow> = [
  'id',
  'createdAt',
  'data',
];

export interface ExportPlan {
  formId: string;
  filters: SubmissionFilters;
  columns: ReadonlyArray<keyof SubmissionRow>;
  header: string;
  encode: (row: SubmissionRow) => string;
}

/** The first batch of an export, read before the response starts (errors become statuses). */
export async function firstBatch(
  submissions: SubmissionRepository,
  plan: ExportPlan,
): Promise<RowBatch> {
  await takeTurn();
  return submissions.read({
    formId: plan.formId,
    filters: plan.filters,
    direction: 'DESC',
    limit: EXPORT_BATCH_SIZE,
    columns: plan.columns,
  });
}

export async function* exportChunks(
  submissions: SubmissionRepository,
  plan: ExportPlan,
  first: RowBatch,
): AsyncGenerator<string> {
  let batch = first;
  let chunk = plan.header;
  for (;;) {
    // The whole batch is encoded within its turn. Yielding while encoding would leave
    // the rest of the batch to whichever socket event pulls next, and ten exports
    // resuming in one event-loop iteration would add up again.
    const ready: string[] = [];
    for (const row of batch.rows) {
      chunk += plan.encode(row);
      if (chunk.length >= EXPORT_CHUNK_CHARS) {
        ready.push(chunk);
        chunk = '';
      }
    }
    yield* ready;
    const after = resumeAfter(batch, EXPORT_BATCH_SIZE);
    if (!after) break;
    await takeTurn();
    batch = await submissions.read({
      formId: plan.formId,
      filters: plan.filters,
      direction: 'DESC',
      after,
      limit: EXPORT_BATCH_SIZE,
      columns: plan.columns,
    });
  }
  if (chunk !== '') yield chunk;
}

/**
 * The CSV columns of a form without configured fields: every key seen, in the order
 * keys first appear over time (oldest submission first). One pass over the matching
 * rows in batches, one turn each; only the key set is kept.
 */
export async function keysInOrder(
  submissions: SubmissionRepository,
  formId: string,
  filters: SubmissionFilters,
): Promise<string[]> {
  const keys = new Set<string>();
  let after: SubmissionPosition | undefined;
  for (;;) {
    await takeTurn();
    const batch = await submissions.read({
      formId,
      filters,
      direction: 'ASC',
      after,
      limit: EXPORT_BATCH_SIZE,
      columns: ['id', 'createdAt', 'data'],
    });
    for (const row of batch.rows) {
      for (const key of Object.keys(toData(row.data))) {
        if (keys.size >= MAX_CSV_COLUMNS) return [...keys];
        keys.add(key);
      }
    }
    after = resumeAfter(batch, EXPORT_BATCH_SIZE);
    if (!after) return [...keys];
  }
}

/** One CSV record; a column the submission lacks is empty, whatever its name. */
export function csvLine(
  row: SubmissionRow,
  columns: readonly string[],
): string {
  const data = toData(row.data);
  const values: unknown[] = [row.id, isoTime(row.createdAt)];
  for (const column of columns) {
    values.push(Object.hasOwn(data, column) ? data[column] : undefined);
  }
  return csvRow(values);
}

/** The Submission shape of the API on one line; stored JSON text is passed through. */
export function ndjsonLine(row: SubmissionRow): string {
  const data =
    typeof row.data === 'string' &&
    row.data.startsWith('{') &&
    !/[\r\n\u2028\u2029]/.test(row.data)
      ? row.data
      : JSON.stringify(toData(row.data));
  return (
    `{"id":${JSON.stringify(row.id)},"formId":${JSON.stringify(row.formId)},` +
    `"data":${data},"createdAt":"${isoTime(row.createdAt)}",` +
    `"meta":{"ip":${JSON.stringify(row.ip)},"userAgent":${JSON.stringify(row.userAgent)},` +
    `"origin":${JSON.stringify(row.origin)}}}\n`
  );
}

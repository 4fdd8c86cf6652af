// The body of a streamed export: header and rows, encoded batch by batch as the
// consumer pulls. Each batch (a query and its encoding) is one turn on the event loop,
// sized to take a few milliseconds, so any number of concurrent exports leave the
// server answering other requests.
import { takeTurn } from '../../common/runtime/event-loop-turns.js';
import type { SubmissionPosition } from '../queries/cursor.js';
import type { SubmissionFilters } from '../queries/submission-filters.js';
import type { RowQuery } from '../submission-sql.js';
import {
  isoTime,
  resumeAfter,
  toData,
  toReasons,
  type RowBatch,
  type SubmissionRow,
} from '../queries/submission-rows.js';
import type { SubmissionRepository } from '../submission.repository.js';
import { csvRow } from './csv.js';
import { fileCell } from './file-cells.js';

/**
 * Most rows per query while exporting. Small on purpose: a batch lives across the await
 * of its query, so whatever a young-generation GC finds alive gets promoted to the old
 * generation. With 2,000-row batches a 1M-row export grew the heap by ~70 MB of
 * promoted garbage before a full GC; with 500 the process stays within ~10 MB of idle.
 */
export const EXPORT_BATCH_SIZE = 500;
/** Rows of an export's first query; the next ones grow (at most doubling) from here. */
export const FIRST_EXPORT_BATCH_SIZE = 100;
/** Fewest rows per query, however wide the rows. */
export const MIN_EXPORT_BATCH_SIZE = 10;
/**
 * What one turn on the event loop of an export (a batch read on SQLite and encoded)
 * aims to take, in ms. Batch sizes follow the time the last batch took, not a fixed
 * row count: submissions of a few KB each still make turns of a few milliseconds.
 */
export const EXPORT_TURN_MS = 6;
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
  'status',
  'assigneeId',
];

/** The inbox's columns a CSV ends with (after the values). */
export const CSV_INBOX_HEADER = ['status', 'assignee', 'labels'];

/** What the inbox shows of a row in an export (InboxService.fieldsOf). */
export interface ExportInboxFields {
  status: string;
  assignee: { userId: string; email: string } | null;
  labels: string[];
  noteCount: number;
}

export interface ExportPlan {
  formId: string;
  filters: SubmissionFilters;
  columns: ReadonlyArray<keyof SubmissionRow>;
  header: string;
  /** Work a batch needs before its rows are encoded (the CSV's file links). */
  beforeBatch?: (rows: readonly SubmissionRow[]) => Promise<void>;
  encode: (row: SubmissionRow) => string;
}

/**
 * The rows of the next query: as many as the last batch's rows per millisecond fit in
 * EXPORT_TURN_MS, at most double the last size, within MIN_EXPORT_BATCH_SIZE and
 * EXPORT_BATCH_SIZE. `busyMs` is the time the batch held the event loop.
 */
export function nextBatchSize(
  size: number,
  rows: number,
  busyMs: number,
): number {
  if (rows === 0) return size;
  const fitting =
    busyMs > 0 ? Math.floor((EXPORT_TURN_MS * rows) / busyMs) : Infinity;
  return Math.max(
    MIN_EXPORT_BATCH_SIZE,
    Math.min(EXPORT_BATCH_SIZE, size * 2, fitting),
  );
}

/**
 * A batch read with the time it held the event loop: on SQLite the statement runs on
 * it (a `q` search takes turns of its own, and is not counted); on MySQL/MariaDB the
 * query waits off the loop.
 */
async function readBatch(
  submissions: SubmissionRepository,
  query: RowQuery,
): Promise<{ batch: RowBatch; busyMs: number }> {
  const started = performance.now();
  const batch = await submissions.read(query);
  const onLoop = submissions.isSqlite && !query.filters.q;
  return { batch, busyMs: onLoop ? performance.now() - started : 0 };
}

/** A batch of an export and the rows its query asked for. */
export interface ExportBatch {
  batch: RowBatch;
  limit: number;
  /** The time its query held the event loop. */
  busyMs: number;
}

/** The first batch of an export, read before the response starts (errors become statuses). */
export async function firstBatch(
  submissions: SubmissionRepository,
  plan: ExportPlan,
): Promise<ExportBatch> {
  await takeTurn();
  const limit = FIRST_EXPORT_BATCH_SIZE;
  const read = await readBatch(submissions, {
    formId: plan.formId,
    filters: plan.filters,
    direction: 'DESC',
    limit,
    columns: plan.columns,
  });
  return { ...read, limit };
}

export async function* exportChunks(
  submissions: SubmissionRepository,
  plan: ExportPlan,
  first: ExportBatch,
): AsyncGenerator<string> {
  let { batch, limit, busyMs } = first;
  let chunk = plan.header;
  for (;;) {
    if (plan.beforeBatch) await plan.beforeBatch(batch.rows);
    // The whole batch is encoded within its turn. Yielding while encoding would leave
    // the rest of the batch to whichever socket event pulls next, and ten exports
    // resuming in one event-loop iteration would add up again.
    const encoding = performance.now();
    const ready: string[] = [];
    for (const row of batch.rows) {
      chunk += plan.encode(row);
      if (chunk.length >= EXPORT_CHUNK_CHARS) {
        ready.push(chunk);
        chunk = '';
      }
    }
    busyMs += performance.now() - encoding;
    yield* ready;
    const after = resumeAfter(batch, limit);
    if (!after) break;
    limit = nextBatchSize(limit, batch.rows.length, busyMs);
    await takeTurn();
    ({ batch, busyMs } = await readBatch(submissions, {
      formId: plan.formId,
      filters: plan.filters,
      direction: 'DESC',
      after,
      limit,
      columns: plan.columns,
    }));
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
  let limit = FIRST_EXPORT_BATCH_SIZE;
  for (;;) {
    await takeTurn();
    const { batch, busyMs } = await readBatch(submissions, {
      formId,
      filters,
      direction: 'ASC',
      after,
      limit,
      columns: ['id', 'createdAt', 'data'],
    });
    const scanning = performance.now();
    for (const row of batch.rows) {
      for (const key of Object.keys(toData(row.data))) {
        if (keys.size >= MAX_CSV_COLUMNS) return [...keys];
        keys.add(key);
      }
    }
    after = resumeAfter(batch, limit);
    if (!after) return [...keys];
    limit = nextBatchSize(
      limit,
      batch.rows.length,
      busyMs + performance.now() - scanning,
    );
  }
}

/**
 * One CSV record; a column the submission lacks is empty, whatever its name. A file is its
 * name and link (`links`: the submission's, by file id).
 */
export function csvLine(
  row: SubmissionRow,
  columns: readonly string[],
  links?: ReadonlyMap<string, string>,
  inbox?: ExportInboxFields,
): string {
  const data = toData(row.data);
  const values: unknown[] = [row.id, isoTime(row.createdAt)];
  for (const column of columns) {
    values.push(
      Object.hasOwn(data, column) ? fileCell(data[column], links) : undefined,
    );
  }
  values.push(
    inbox?.status ?? row.status,
    inbox?.assignee?.email ?? '',
    (inbox?.labels ?? []).join('; '),
  );
  return csvRow(values);
}

/** The Submission shape of the API on one line; stored JSON text is passed through. */
export function ndjsonLine(
  row: SubmissionRow,
  inbox?: ExportInboxFields,
): string {
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
    `"origin":${JSON.stringify(row.origin)}},"spam":${Boolean(Number(row.spam))},` +
    `"spamReasons":${JSON.stringify(toReasons(row.spamReasons))},` +
    `"status":${JSON.stringify(inbox?.status ?? row.status)},"assignee":${JSON.stringify(inbox?.assignee ?? null)},` +
    `"labels":${JSON.stringify(inbox?.labels ?? [])},"noteCount":${inbox?.noteCount ?? 0}}\n`
  );
}

import { parseFilters } from '../queries/submission-filters.js';
import { sqlDatetime } from '../../common/database/sql-dates.js';
import { type SubmissionRow } from '../queries/submission-rows.js';
import type { RowQuery } from '../submission-sql.js';
import type { SubmissionRepository } from '../submission.repository.js';
import {
  EXPORT_BATCH_SIZE,
  EXPORT_TURN_MS,
  exportChunks,
  firstBatch,
  FIRST_EXPORT_BATCH_SIZE,
  MIN_EXPORT_BATCH_SIZE,
  ndjsonLine,
  nextBatchSize,
  type ExportPlan,
} from './submission-export.js';

describe('nextBatchSize', () => {
  it('fits the next batch into a turn of EXPORT_TURN_MS at the last rate', () => {
    // 200 rows took twice the budget: 100 fit.
    expect(nextBatchSize(200, 200, EXPORT_TURN_MS * 2)).toBe(100);
    expect(nextBatchSize(400, 400, EXPORT_TURN_MS)).toBe(400);
  });

  it('grows at most twofold, up to EXPORT_BATCH_SIZE', () => {
    expect(nextBatchSize(FIRST_EXPORT_BATCH_SIZE, 100, 0.1)).toBe(200);
    expect(nextBatchSize(400, 400, 0.1)).toBe(EXPORT_BATCH_SIZE);
    expect(nextBatchSize(100, 100, 0)).toBe(200);
  });

  it('never goes below MIN_EXPORT_BATCH_SIZE, and keeps the size after an empty batch', () => {
    expect(nextBatchSize(10, 10, 1000)).toBe(MIN_EXPORT_BATCH_SIZE);
    expect(nextBatchSize(300, 0, 50)).toBe(300);
  });
});

describe('exportChunks', () => {
  // A clock that only the fake statements advance: encoding takes no time.
  let clock = 0;
  beforeEach(() => {
    vi.spyOn(performance, 'now').mockImplementation(() => clock);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** A form's rows newest first, read by keyset like SubmissionRepository on SQLite. */
  function fakeRepository(
    rows: SubmissionRow[],
    msPerRow: number,
  ): { repository: SubmissionRepository; limits: number[] } {
    const limits: number[] = [];
    const repository = {
      isSqlite: true,
      read: (query: RowQuery) => {
        limits.push(query.limit);
        const after = query.after;
        const start = after
          ? rows.findIndex(
              (row) =>
                row.createdAt < sqlDatetime(after.createdAt) ||
                (row.createdAt === sqlDatetime(after.createdAt) &&
                  row.id < after.id),
            )
          : 0;
        const batch =
          start === -1 ? [] : rows.slice(start, start + query.limit);
        // The statement holds the loop for a time proportional to its rows.
        clock += batch.length * msPerRow;
        return Promise.resolve({ rows: batch });
      },
    } as unknown as SubmissionRepository;
    return { repository, limits };
  }

  const rows: SubmissionRow[] = Array.from({ length: 1500 }, (_, i) => ({
    id: `id-${String(9999 - i).padStart(4, '0')}`,
    formId: 'form',
    // Two rows per millisecond: some batches end between rows of the same time.
    data: JSON.stringify({ n: i }),
    ip: null,
    userAgent: null,
    origin: null,
    createdAt: sqlDatetime(new Date(Date.UTC(2025, 0, 1) - Math.floor(i / 2))),
    spam: 0,
    spamReasons: null,
    status: 'new',
    assigneeId: null,
  }));

  const plan: ExportPlan = {
    formId: 'form',
    filters: parseFilters({}),
    columns: [],
    header: 'header\n',
    encode: ndjsonLine,
  };

  async function exported(repository: SubmissionRepository): Promise<string> {
    let text = '';
    for await (const chunk of exportChunks(
      repository,
      plan,
      await firstBatch(repository, plan),
    )) {
      text += chunk;
    }
    return text;
  }

  const expected = 'header\n' + rows.map((row) => ndjsonLine(row)).join('');

  it('grows batches up to EXPORT_BATCH_SIZE while rows are quick', async () => {
    const { repository, limits } = fakeRepository(rows, 0);
    expect(await exported(repository)).toBe(expected);
    expect(limits.slice(0, 4)).toEqual([100, 200, 400, 500]);
  });

  it('shrinks batches of slow rows to about EXPORT_TURN_MS, with the same output', async () => {
    // 0.2 ms a row: about 30 rows a turn.
    const { repository, limits } = fakeRepository(rows, 0.2);
    expect(await exported(repository)).toBe(expected);
    expect(limits.slice(0, 3)).toEqual([100, 30, 30]);
    expect(new Set(limits.slice(1))).toEqual(new Set([30]));
  });
});

// Keeps the full-text index a few seconds behind the submissions, off the submit path: every
// SEARCH_INDEX_INTERVAL_SECONDS the process that runs the worker indexes what arrived, in batches that
// take turns on the event loop (on SQLite each batch is one short synchronous transaction).
// Rows newer than GRACE_MS are left to the next pass, so a commit batch still in flight is
// not skipped; searches scan those newest rows instead (SubmissionRepository.read).
// While this process is taking a burst of submissions (submission-pressure.ts, as the
// notification worker judges it) a pass waits, for at most MAX_YIELD_MS: indexing costs
// about a tenth of a submission's CPU, which a burst needs more than the index does.
import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { takeTurn } from '../../common/runtime/event-loop-turns.js';
import { AppConfig } from '../../config/app-config.js';
import { sqlDatetime } from '../../common/database/sql-dates.js';
import {
  SubmissionPressure,
  type CommittedSubmissions,
} from '../submission-pressure.js';
import { SearchIndexRepository } from './search-index.repository.js';
import { searchText } from './search-text.js';

/** Rows younger than this wait for the next pass (a commit in flight). */
export const GRACE_MS = 2000;
/** Submissions per indexing transaction. */
export const INDEX_BATCH = 200;
/** Longest a scheduled pass waits for a burst of submissions to end. */
export const MAX_YIELD_MS = 10_000;

/** Whether a scheduled pass runs now: not during a burst, unless it has waited MAX_YIELD_MS. */
export function passNow(burst: boolean, sinceLastPassMs: number): boolean {
  return !burst || sinceLastPassMs >= MAX_YIELD_MS;
}

@Injectable()
export class SearchIndexer
  implements OnApplicationBootstrap, OnApplicationShutdown, CommittedSubmissions
{
  private readonly logger = new Logger('SearchIndexer');
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;
  private stopped = false;
  /** Submissions this process's commit queue committed (told by it, as CommitNotifier is). */
  submissions = 0;
  private readonly pressure = new SubmissionPressure(this);
  private lastPassAt = Date.now();

  constructor(
    private readonly index: SearchIndexRepository,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const seconds = this.config.searchIndexIntervalSeconds;
    if (!this.config.workerEnabled || seconds === 0) return;
    this.timer = setInterval(() => this.scheduledPass(), seconds * 1000);
    this.timer.unref();
  }

  submissionsCommitted(count: number): void {
    this.submissions += count;
  }

  /** The timer's pass: waits while a burst of submissions lasts, for at most MAX_YIELD_MS. */
  private scheduledPass(): void {
    if (passNow(this.pressure.sample(), Date.now() - this.lastPassAt)) {
      void this.pass();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => 0);
  }

  /** One pass (at most one at a time): indexes what waits; failures wait for the next. */
  pass(): Promise<number> {
    this.running ??= this.indexPending()
      .catch((error: unknown) => {
        this.logger.warn(`Search indexing failed: ${(error as Error).message}`);
        return 0;
      })
      .finally(() => {
        this.running = undefined;
        this.lastPassAt = Date.now();
      });
    return this.running;
  }

  /** Indexes every submission older than GRACE_MS not yet indexed; answers how many. */
  async indexPending(now = Date.now()): Promise<number> {
    const before = sqlDatetime(new Date(now - GRACE_MS));
    let total = 0;
    for (;;) {
      if (this.stopped) return total;
      await takeTurn();
      const done = await this.indexBatch(before);
      total += done;
      if (done < INDEX_BATCH) return total;
    }
  }

  /** Empties the index and indexes every submission again (search:rebuild). */
  async rebuild(): Promise<number> {
    await this.index.clear();
    return this.indexPending(Date.now() + GRACE_MS);
  }

  /** One batch; answers how many submissions it read. */
  private async indexBatch(before: string): Promise<number> {
    const rows = await this.index.pending(before, INDEX_BATCH);
    if (rows.length === 0) return 0;
    await this.index.save(
      rows.map((row) => ({ id: row.id, text: searchText(row.data) })),
      rows[rows.length - 1].id,
    );
    return rows.length;
  }
}

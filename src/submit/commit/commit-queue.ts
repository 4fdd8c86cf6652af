// The one writer of submissions. Accepted submissions wait here; whenever the writer is
// free, everything waiting (up to MAX_BATCH) is committed as one batch, and each waiter is
// answered only once its batch has committed. Batching turns a commit (and, on MySQL, a
// round trip) per request into one per batch, without acknowledging anything early.
// SQLite writes one batch at a time (one connection); MySQL/MariaDB a few at once, each on
// its own pooled connection, so the round trips of one batch overlap those of the next.
import {
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  Optional,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { isDatabaseUnavailable } from '../../common/database/driver-errors.js';
import { TemporarilyUnavailableException } from '../../common/errors/errors.js';
import { AppConfig } from '../../config/app-config.js';
import { DB_DEADLINE_MS } from '../../common/database/database-deadline.js';
import { FORM_NOT_FOUND } from '../../forms/forms.service.js';
import { Metrics } from '../../metrics/metrics.js';
import { NO_TRACING, TRACING, type Tracing } from '../../tracing/tracing.js';
import { CommitNotifier } from '../../notifications/deliveries/commit-notifier.js';
import { SubmissionWriterProvider } from './submission-writer-provider.js';
import { SearchIndexer } from '../../submissions/search/search-indexer.js';
import type { CommitItem, SubmissionWriter } from './submission-writer.js';

/** Most submissions one batch commits. */
export const MAX_BATCH = 500;
/** How often waiters are checked against their deadline while the queue is not empty. */
const SWEEP_MS = 250;
/** Longest SIGTERM waits for the queue to empty. */
const DRAIN_MS = 10_000;

interface Waiter {
  /** A submission to store, or (honeypot) only the form whose trap caught a post. */
  item: CommitItem | { honeypotOf: string };
  enqueuedAt: number;
  settled: boolean;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class QueueFullException extends TemporarilyUnavailableException {
  constructor() {
    super(
      'Too many submissions are waiting to be stored: retry in a second',
      1,
    );
  }
}

/** The item's Idempotency-Key was taken when its batch was written: nothing was stored. */
export class IdempotencyKeyTakenError extends Error {
  constructor() {
    super('The Idempotency-Key was taken by another request');
  }
}

function unavailable(): TemporarilyUnavailableException {
  return new TemporarilyUnavailableException(
    'Database unavailable, please retry shortly',
  );
}

@Injectable()
export class CommitQueue implements OnApplicationShutdown {
  private readonly logger = new Logger('CommitQueue');
  /** Waiting submissions, oldest first; `head` is the first not yet taken. */
  private waiting: Waiter[] = [];
  private head = 0;
  /** Batches being written. */
  private writing = 0;
  private scheduled = false;
  private sweeper: NodeJS.Timeout | undefined;
  private idle: Array<() => void> = [];
  private readonly limit: number;

  constructor(
    private readonly writers: SubmissionWriterProvider,
    config: AppConfig,
    /** Told of every committed batch, and when one wrote an outbox event (wakes the worker). */
    @Optional() private readonly deliveries?: CommitNotifier,
    /** Told of each batch's size; reads the queue's depth when scraped. */
    @Optional() private readonly metrics?: Metrics,
    @Optional() @Inject(TRACING) private readonly tracing: Tracing = NO_TRACING,
    /** Told of each batch's size too: it waits while this process takes a burst. */
    @Optional() private readonly search?: SearchIndexer,
  ) {
    this.limit = config.submitQueueLimit;
    metrics?.watchCommitQueue(() => this.length);
  }

  /** true while a batch is being written. */
  get isWriting(): boolean {
    return this.writing > 0;
  }

  /** Batches being written right now. */
  get batchesInProgress(): number {
    return this.writing;
  }

  /** Submissions waiting for a batch. */
  get length(): number {
    return this.waiting.length - this.head;
  }

  /** Resolves once the item is committed; rejects with the error its request should answer. */
  commit(item: CommitItem): Promise<void> {
    return this.enqueue(item);
  }

  /**
   * Counts a post the honeypot caught, in the next batch. The bot's answer waits for that
   * batch like a person's would, so the timing gives the trap away no more than the body.
   */
  countHoneypotHit(formId: string): Promise<void> {
    return this.enqueue({ honeypotOf: formId });
  }

  private enqueue(item: Waiter['item']): Promise<void> {
    if (this.length >= this.limit) {
      return Promise.reject(new QueueFullException());
    }
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({
        item,
        enqueuedAt: Date.now(),
        settled: false,
        resolve,
        reject,
      });
      this.schedule();
    });
  }

  /** Resolves when nothing waits and no batch is being written. */
  whenIdle(): Promise<void> {
    if (this.writing === 0 && !this.scheduled && this.length === 0) {
      return Promise.resolve();
    }
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /** In-flight requests have been answered by now (HTTP closed first); anything left is written. */
  async onApplicationShutdown(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.whenIdle(),
      new Promise((resolve) => (timer = setTimeout(resolve, DRAIN_MS))),
    ]);
    clearTimeout(timer);
    clearInterval(this.sweeper);
    await this.writers.close();
  }

  /**
   * Writes on the next turn of the event loop, so that every request parsed in this turn
   * joins the batch; while a batch is being written, the next one simply grows.
   */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.run();
    });
    if (this.sweeper === undefined) {
      this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
      this.sweeper.unref();
    }
  }

  /** Starts batches while submissions wait and the writer takes more; each that ends runs this again. */
  private run(): void {
    while (this.length > 0) {
      const writer = this.writers.current();
      if (this.writing >= (writer?.parallelBatches ?? 1)) return;
      if (writer !== undefined && !writer.canWrite()) {
        // Retried shortly, once the other transaction has ended.
        if (this.writing === 0) setTimeout(() => this.run(), 1);
        return;
      }
      const batch = this.take();
      this.writing += 1;
      void this.writeBatch(writer, batch).finally(() => {
        this.writing -= 1;
        this.run();
      });
    }
    if (this.writing > 0) return;
    this.stopSweeping();
    for (const resolve of this.idle.splice(0)) resolve();
  }

  private take(): Waiter[] {
    const end = Math.min(this.waiting.length, this.head + MAX_BATCH);
    const batch = this.waiting.slice(this.head, end);
    this.head = end;
    if (this.head === this.waiting.length) {
      this.waiting = [];
      this.head = 0;
    } else if (this.head > 4096) {
      this.waiting = this.waiting.slice(this.head);
      this.head = 0;
    }
    return batch.filter((waiter) => !waiter.settled);
  }

  private async writeBatch(
    writer: SubmissionWriter | undefined,
    waiters: Waiter[],
  ): Promise<void> {
    if (waiters.length === 0) return;
    if (writer === undefined) {
      for (const waiter of waiters) this.settle(waiter, unavailable());
      return;
    }
    const stored: Waiter[] = [];
    const trapped: Waiter[] = [];
    const items: CommitItem[] = [];
    const honeypotHits = new Map<string, number>();
    for (const waiter of waiters) {
      const { item } = waiter;
      if ('honeypotOf' in item) {
        trapped.push(waiter);
        honeypotHits.set(
          item.honeypotOf,
          (honeypotHits.get(item.honeypotOf) ?? 0) + 1,
        );
      } else {
        stored.push(waiter);
        items.push(item);
      }
    }
    // No request waits longer than the deadline in all, queueing included: the batch gets
    // what is left of its oldest waiter's time.
    const deadline =
      Math.min(...waiters.map((w) => w.enqueuedAt)) + DB_DEADLINE_MS;
    let timer: NodeJS.Timeout | undefined;
    const span = this.tracing.start('formgate.commit_batch', {
      'formgate.batch.size': waiters.length,
    });
    let failed = false;
    try {
      const outcomes = await Promise.race([
        writer.write({ items, honeypotHits }),
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(
            () => reject(unavailable()),
            Math.max(0, deadline - Date.now()),
          );
        }),
      ]);
      this.logger.debug(`Committed a batch of ${items.length} submissions`);
      this.metrics?.batchCommitted(waiters.length);
      stored.forEach((waiter, i) => this.settle(waiter, outcomes[i]));
      this.deliveries?.submissionsCommitted(items.length);
      this.search?.submissionsCommitted(items.length);
      if (items.some((item) => item.outbox !== undefined)) {
        this.deliveries?.committed();
      }
      for (const waiter of trapped) this.settle(waiter, 'stored');
    } catch (error) {
      failed = true;
      if (
        !(error instanceof TemporarilyUnavailableException) &&
        !isDatabaseUnavailable(error)
      ) {
        this.logger.error(
          `A batch of ${waiters.length} submissions failed: ${(error as Error)?.message ?? String(error)}`,
          (error as Error)?.stack,
        );
      }
      const answer = isDatabaseUnavailable(error) ? unavailable() : error;
      for (const waiter of waiters) this.settle(waiter, answer);
    } finally {
      clearTimeout(timer);
      span.end(undefined, failed);
    }
  }

  /** `outcome` is the item's outcome, or the error that failed its whole batch. */
  private settle(waiter: Waiter, outcome: unknown): void {
    if (waiter.settled) return;
    waiter.settled = true;
    if (outcome === 'stored') waiter.resolve();
    else if (outcome === 'key-taken') {
      waiter.reject(new IdempotencyKeyTakenError());
    } else if (outcome === 'form-gone') {
      waiter.reject(new NotFoundException(FORM_NOT_FOUND));
    } else if (
      typeof outcome === 'object' &&
      outcome !== null &&
      'error' in outcome &&
      !(outcome instanceof Error)
    ) {
      this.logger.error(
        `A submission could not be stored: ${String((outcome.error as Error)?.message ?? outcome.error)}`,
        (outcome.error as Error)?.stack,
      );
      waiter.reject(outcome.error);
    } else waiter.reject(outcome);
  }

  /** A request waits at most the database deadline, also behind a batch that hangs. */
  private sweep(): void {
    const expired = Date.now() - DB_DEADLINE_MS;
    for (let i = this.head; i < this.waiting.length; i += 1) {
      const waiter = this.waiting[i];
      if (waiter.enqueuedAt > expired) break;
      this.settle(waiter, unavailable());
    }
    this.stopSweeping();
  }

  private stopSweeping(): void {
    if (this.length === 0 && this.writing === 0 && this.sweeper !== undefined) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }
}

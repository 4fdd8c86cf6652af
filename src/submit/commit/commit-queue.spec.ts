import { NotFoundException } from '@nestjs/common';
import { TemporarilyUnavailableException } from '../../common/errors/errors.js';
import type { AppConfig } from '../../config/app-config.js';
import { CommitNotifier } from '../../notifications/deliveries/commit-notifier.js';
import { CommitQueue, MAX_BATCH, QueueFullException } from './commit-queue.js';
import type {
  CommitBatch,
  CommitItem,
  ItemOutcome,
  SubmissionWriter,
} from './submission-writer.js';
import type { SubmissionWriterProvider } from './submission-writer-provider.js';

/** A writer that records each batch and answers as the test says, when the test says. */
class FakeWriter implements SubmissionWriter {
  parallelBatches = 1;
  batches: CommitBatch[] = [];
  busy = false;
  /** How each batch is answered; by default every item is stored at once. */
  answer: (batch: CommitBatch) => Promise<ItemOutcome[]> | ItemOutcome[] = (
    batch,
  ) => batch.items.map(() => 'stored');

  canWrite(): boolean {
    return !this.busy;
  }

  write(batch: CommitBatch): Promise<ItemOutcome[]> | ItemOutcome[] {
    this.batches.push(batch);
    return this.answer(batch);
  }
}

function item(n: number, formId = 'form'): CommitItem {
  return {
    submission: {
      id: `id-${n}`,
      formId,
      data: `{"n":${n}}`,
      ip: null,
      userAgent: null,
      origin: null,
      createdAt: new Date(0),
      spam: false,
      spamReasons: null,
    },
  };
}

/** SubmissionWriterProvider handing out the test's writer. */
function writersOf(
  current: () => SubmissionWriter | undefined,
): SubmissionWriterProvider {
  return {
    current,
    close: () => Promise.resolve(),
  } as unknown as SubmissionWriterProvider;
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('CommitQueue', () => {
  let writer: FakeWriter | undefined;
  let queue: CommitQueue;

  const make = (limit = 10_000) => {
    writer = new FakeWriter();
    queue = new CommitQueue(
      writersOf(() => writer),
      {
        submitQueueLimit: limit,
      } as AppConfig,
    );
    return writer;
  };

  afterEach(async () => {
    await queue.onApplicationShutdown();
    vi.useRealTimers();
  });

  it('writes submissions that arrive together as one batch, then answers each', async () => {
    const w = make();
    const answers = await Promise.all(
      [1, 2, 3].map((n) => queue.commit(item(n))),
    );
    expect(answers).toEqual([undefined, undefined, undefined]);
    expect(w.batches).toHaveLength(1);
    expect(w.batches[0].items.map((i) => i.submission.id)).toEqual([
      'id-1',
      'id-2',
      'id-3',
    ]);
  });

  it('answers nobody before the batch has committed', async () => {
    const w = make();
    const commit = deferred<ItemOutcome[]>();
    w.answer = () => commit.promise;
    let answered = false;
    const pending = queue.commit(item(1)).then(() => (answered = true));
    await new Promise((r) => setImmediate(r));
    expect(w.batches).toHaveLength(1);
    expect(answered).toBe(false);
    commit.resolve(['stored']);
    await pending;
    expect(answered).toBe(true);
  });

  it('collects what arrives while a batch is written into the next batch', async () => {
    const w = make();
    const first = deferred<ItemOutcome[]>();
    w.answer = () => first.promise;
    const a = queue.commit(item(1));
    await new Promise((r) => setImmediate(r));
    w.answer = (batch) => batch.items.map(() => 'stored');
    const later = [2, 3, 4].map((n) => queue.commit(item(n)));
    first.resolve(['stored']);
    await Promise.all([a, ...later]);
    expect(w.batches.map((b) => b.items.length)).toEqual([1, 3]);
  });

  it('writes up to as many batches at once as the writer takes, and the rest after', async () => {
    const w = make();
    w.parallelBatches = 2;
    const commits = [1, 2, 3].map(() => deferred<ItemOutcome[]>());
    w.answer = () => commits[w.batches.length - 1].promise;
    const a = queue.commit(item(1));
    await new Promise((r) => setImmediate(r));
    const b = queue.commit(item(2));
    await new Promise((r) => setImmediate(r));
    const c = queue.commit(item(3));
    const d = queue.commit(item(4));
    await new Promise((r) => setImmediate(r));
    // Two batches in progress; the third waits for one of them, and grows meanwhile.
    expect(w.batches.map((x) => x.items.length)).toEqual([1, 1]);
    expect(queue.isWriting).toBe(true);
    commits[1].resolve(['stored']);
    await b;
    await new Promise((r) => setImmediate(r));
    expect(w.batches.map((x) => x.items.length)).toEqual([1, 1, 2]);
    commits[2].resolve(['stored', 'stored']);
    await Promise.all([c, d]);
    expect(queue.isWriting).toBe(true);
    commits[0].resolve(['stored']);
    await a;
    await queue.whenIdle();
    expect(queue.isWriting).toBe(false);
  });

  it(`never puts more than ${MAX_BATCH} submissions in one batch`, async () => {
    const w = make();
    await Promise.all(
      Array.from({ length: MAX_BATCH * 2 + 1 }, (_, n) =>
        queue.commit(item(n)),
      ),
    );
    expect(w.batches.map((b) => b.items.length)).toEqual([
      MAX_BATCH,
      MAX_BATCH,
      1,
    ]);
  });

  it('refuses with 503 and Retry-After 1 when the queue is full', async () => {
    const w = make(2);
    const hold = deferred<ItemOutcome[]>();
    w.answer = () => hold.promise;
    const first = queue.commit(item(1));
    await new Promise((r) => setImmediate(r));
    // The first is being written; two more wait; the fourth is refused.
    const waiting = [queue.commit(item(2)), queue.commit(item(3))];
    const refused = await queue
      .commit(item(4))
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(QueueFullException);
    expect((refused as QueueFullException).getStatus()).toBe(503);
    expect((refused as QueueFullException).retryAfterSeconds).toBe(1);
    w.answer = (batch) => batch.items.map(() => 'stored');
    hold.resolve(['stored']);
    await Promise.all([first, ...waiting]);
  });

  it('answers 404 to the one submission whose form is gone, and stores the others', async () => {
    const w = make();
    w.answer = (batch) =>
      batch.items.map((i) =>
        i.submission.formId === 'deleted' ? 'form-gone' : 'stored',
      );
    const results = await Promise.allSettled([
      queue.commit(item(1)),
      queue.commit(item(2, 'deleted')),
      queue.commit(item(3)),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    const refusal = (results[1] as PromiseRejectedResult).reason as unknown;
    expect(refusal).toBeInstanceOf(NotFoundException);
    expect((refusal as NotFoundException).message).toBe('Form not found');
  });

  it('answers 503 to every waiter of a batch the database could not take', async () => {
    const w = make();
    w.answer = () => {
      throw Object.assign(new Error('connect ECONNREFUSED'), {
        code: 'ECONNREFUSED',
      });
    };
    const results = await Promise.allSettled([
      queue.commit(item(1)),
      queue.commit(item(2)),
    ]);
    for (const result of results) {
      expect(result.status).toBe('rejected');
      const error = (result as PromiseRejectedResult).reason as unknown;
      expect(error).toBeInstanceOf(TemporarilyUnavailableException);
      expect((error as TemporarilyUnavailableException).retryAfterSeconds).toBe(
        5,
      );
    }
  });

  it('answers 503 while the database is not connected', async () => {
    make();
    writer = undefined;
    await expect(queue.commit(item(1))).rejects.toBeInstanceOf(
      TemporarilyUnavailableException,
    );
  });

  it('answers 503 within the deadline when a batch hangs, also to those queued behind it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'Date'] });
    const w = make();
    w.answer = () => new Promise<never>(() => {});
    const hung = queue.commit(item(1)).catch((error: unknown) => error);
    await new Promise((r) => setImmediate(r));
    const behind = queue.commit(item(2)).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(5_300);
    expect(await hung).toBeInstanceOf(TemporarilyUnavailableException);
    expect(await behind).toBeInstanceOf(TemporarilyUnavailableException);
  });

  it('counts honeypot hits in the batch, per form, and answers them after it commits', async () => {
    const w = make();
    await Promise.all([
      queue.countHoneypotHit('a'),
      queue.commit(item(1, 'a')),
      queue.countHoneypotHit('a'),
      queue.countHoneypotHit('b'),
    ]);
    expect(w.batches).toHaveLength(1);
    expect(w.batches[0].items).toHaveLength(1);
    expect([...w.batches[0].honeypotHits]).toEqual([
      ['a', 2],
      ['b', 1],
    ]);
  });

  it('waits while the writer cannot start (another transaction is open)', async () => {
    const w = make();
    w.busy = true;
    const pending = queue.commit(item(1));
    await new Promise((r) => setTimeout(r, 20));
    expect(w.batches).toHaveLength(0);
    w.busy = false;
    await pending;
    expect(w.batches).toHaveLength(1);
  });

  it('wakes the notification worker after a batch that wrote an outbox event', async () => {
    make();
    const signal = new CommitNotifier();
    let wakes = 0;
    signal.subscribe(() => (wakes += 1));
    await queue.onApplicationShutdown();
    queue = new CommitQueue(
      writersOf(() => writer),
      { submitQueueLimit: 100 } as AppConfig,
      signal,
    );
    await queue.commit(item(1));
    expect(wakes).toBe(0);
    const notifying = item(2);
    notifying.outbox = { submissionId: 'id-2', payload: null };
    await queue.commit(notifying);
    expect(wakes).toBe(1);
    expect(writer!.batches.at(-1)!.items[0].outbox).toEqual({
      submissionId: 'id-2',
      payload: null,
    });
  });

  it('lets shutdown wait until the last batch has committed', async () => {
    const w = make();
    const hold = deferred<ItemOutcome[]>();
    w.answer = () => hold.promise;
    const pending = queue.commit(item(1));
    await new Promise((r) => setImmediate(r));
    let drained = false;
    const shutdown = queue.onApplicationShutdown().then(() => (drained = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(drained).toBe(false);
    hold.resolve(['stored']);
    await Promise.all([pending, shutdown]);
    expect(drained).toBe(true);
  });
});

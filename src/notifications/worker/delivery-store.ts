// The worker's side of the outbox: claim due deliveries under a lease, keep the lease while
// sending, and record each attempt with its outcome.
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, In, Repository, type EntityManager } from 'typeorm';
import { FormRepository } from '../../forms/form.repository.js';
import { Submission } from '../../submissions/submission.entity.js';
import { sqlDatetime, toDate } from '../../submissions/submission-rows.js';
import { newSubmissionId } from '../../submissions/submission-id.js';
import { DeliveryAttempt } from '../delivery-attempt.entity.js';
import { Delivery } from '../delivery.entity.js';
import type {
  AttemptOutcome,
  SubmissionNotice,
} from '../notification-channel.js';
import type { NextStep } from './backoff.js';

/** How long a claim lasts unless renewed. */
export const LEASE_MS = 10_000;
/**
 * How long a finished attempt waits for others to be recorded with it: sends started
 * together end within a few milliseconds of each other, and share one commit.
 */
const RECORD_DELAY_MS = 5;

interface Finished {
  delivery: Delivery;
  owner: string;
  outcome: AttemptOutcome;
  step: NextStep;
  at: Date;
  resolve: () => void;
  reject: (error: unknown) => void;
}

function clipError(error: string | null): string | null {
  return error === null ? null : error.slice(0, 500);
}

/** The statuses a worker sends: never tried yet, or to be tried again. */
const CLAIMABLE = ['pending', 'failed'] as const;

const placeholders = (n: number) =>
  Array.from({ length: n }, () => '?').join(', ');

@Injectable()
export class DeliveryStore {
  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(Delivery)
    private readonly deliveries: Repository<Delivery>,
    @InjectRepository(Submission)
    private readonly submissions: Repository<Submission>,
    private readonly forms: FormRepository,
  ) {}

  private get isSqlite(): boolean {
    return this.dataSource.options.type === 'better-sqlite3';
  }

  /**
   * Takes up to `limit` due deliveries for `owner`: their lease (and so the time they are
   * due again, should this worker die) runs LEASE_MS from now. On MySQL/MariaDB the rows
   * are picked with FOR UPDATE SKIP LOCKED, so workers never take the same one; SQLite has
   * one worker, and its single connection serialises the statements.
   */
  async claim(owner: string, limit: number): Promise<Delivery[]> {
    const now = new Date();
    const until = sqlDatetime(new Date(now.getTime() + LEASE_MS));
    const take = Math.floor(limit);
    const pick = async (manager: EntityManager): Promise<string[]> => {
      const lock = this.isSqlite ? '' : ' FOR UPDATE SKIP LOCKED';
      // One read per status, each walking IDX_delivery_due in order and stopping at the
      // limit. `status IN (…)` in one read would collect and sort every due delivery
      // (on MySQL/MariaDB locking them all) for each claim: a backlog would slow it down.
      const due: Array<{ id: string; at: number }> = [];
      for (const status of CLAIMABLE) {
        const rows = (await manager.query(
          `SELECT id, nextAttemptAt FROM delivery WHERE status = '${status}' AND nextAttemptAt <= ? ORDER BY nextAttemptAt LIMIT ${take}${lock}`,
          [sqlDatetime(now)],
        )) as Array<{ id: string; nextAttemptAt: Date | string }>;
        for (const row of rows) {
          due.push({ id: row.id, at: toDate(row.nextAttemptAt).getTime() });
        }
      }
      // The longest due first, whatever their status.
      const ids = due
        .sort((a, b) => a.at - b.at)
        .slice(0, take)
        .map((row) => row.id);
      if (ids.length === 0) return ids;
      await manager.query(
        `UPDATE delivery SET leaseOwner = ?, leaseUntil = ?, nextAttemptAt = ? WHERE id IN (${placeholders(ids.length)})`,
        [owner, until, until, ...ids],
      );
      return ids;
    };
    // READ COMMITTED: the locking read takes the rows it returns, not the gaps around them,
    // so it never blocks (or deadlocks with) the commit queue inserting new deliveries.
    const ids = this.isSqlite
      ? await pick(this.dataSource.manager)
      : await this.dataSource.transaction('READ COMMITTED', pick);
    if (ids.length === 0) return [];
    // Every claimed row now has the same nextAttemptAt (the lease's end): the due order is
    // the order they were picked in, not anything the read below could sort by.
    const order = new Map(ids.map((id, index) => [id, index]));
    const claimed = await this.deliveries.find({
      where: { id: In(ids), leaseOwner: owner },
    });
    return claimed.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  }

  /** Extends the leases of deliveries still being sent. */
  async renew(owner: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    const until = sqlDatetime(new Date(Date.now() + LEASE_MS));
    await this.dataSource.query(
      `UPDATE delivery SET leaseUntil = ?, nextAttemptAt = ? WHERE leaseOwner = ? AND status IN ('pending', 'failed') AND id IN (${placeholders(ids.length)})`,
      [until, until, owner, ...ids],
    );
  }

  /** Gives back claimed deliveries this worker will not send (it is stopping): due now. */
  async release(owner: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.dataSource.query(
      `UPDATE delivery SET leaseOwner = NULL, leaseUntil = NULL, nextAttemptAt = ? WHERE leaseOwner = ? AND status IN ('pending', 'failed') AND id IN (${placeholders(ids.length)})`,
      [sqlDatetime(new Date()), owner, ...ids],
    );
  }

  /**
   * Keeps the attempt and the delivery's new state, if this worker still holds it. One
   * transaction records at a time, and the attempts that end shortly after one another or
   * while it commits are recorded together: one commit (one fsync) for many deliveries.
   */
  finish(
    delivery: Delivery,
    owner: string,
    outcome: AttemptOutcome,
    step: NextStep,
    at: Date,
  ): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.finished.push({
        delivery,
        owner,
        outcome,
        step,
        at,
        resolve,
        reject,
      });
      if (!this.flushing && this.finished.length === 1) {
        setTimeout(() => void this.flush(), RECORD_DELAY_MS);
      }
    });
  }

  private finished: Finished[] = [];
  private flushing = false;

  /** Records what has finished; what finishes meanwhile waits for the next commit. */
  private async flush(): Promise<void> {
    const batch = this.finished;
    this.finished = [];
    if (batch.length === 0) return;
    this.flushing = true;
    try {
      await this.record(batch);
    } finally {
      this.flushing = false;
      if (this.finished.length > 0) void this.flush();
    }
  }

  private async record(batch: Finished[]): Promise<void> {
    try {
      await this.dataSource.transaction(async (manager) => {
        await manager.insert(
          DeliveryAttempt,
          batch.map(({ delivery, outcome, at }) => ({
            id: newSubmissionId(at.getTime()),
            deliveryId: delivery.id,
            at,
            statusCode: outcome.statusCode,
            error: clipError(outcome.error),
            durationMs: Math.max(0, Math.round(outcome.durationMs)),
          })),
        );
        for (const { delivery, owner, outcome, step, at } of batch) {
          await manager.update(
            Delivery,
            { id: delivery.id, leaseOwner: owner },
            {
              status: step.status,
              attempts: () => 'attempts + 1',
              nextAttemptAt: step.nextAttemptAt,
              leaseOwner: null,
              leaseUntil: null,
              lastStatusCode: outcome.statusCode,
              lastError: clipError(outcome.error),
              lastDurationMs: Math.max(0, Math.round(outcome.durationMs)),
              deliveredAt: outcome.ok ? at : delivery.deliveredAt,
            },
          );
        }
      });
      for (const item of batch) item.resolve();
    } catch (error) {
      for (const item of batch) item.reject(error);
    }
  }

  /**
   * The submissions these deliveries are about, as a channel describes them, by id;
   * a deleted one (or one whose form is gone) is absent.
   */
  async notices(
    submissionIds: readonly string[],
  ): Promise<Map<string, SubmissionNotice>> {
    const found = new Map<string, SubmissionNotice>();
    const ids = [...new Set(submissionIds)];
    if (ids.length === 0) return found;
    const rows = await this.submissions.findBy({ id: In(ids) });
    const formIds = [...new Set(rows.map((row) => row.formId))];
    const forms = await this.forms.summaries(formIds);
    for (const row of rows) {
      const form = forms.get(row.formId);
      if (form === undefined) continue;
      const data: unknown =
        typeof row.data === 'string' ? JSON.parse(row.data) : row.data;
      found.set(row.id, {
        id: row.id,
        formId: row.formId,
        formName: form.name,
        accountId: form.accountId,
        createdAt: row.createdAt,
        data: (data ?? {}) as Record<string, unknown>,
        meta: { ip: row.ip, userAgent: row.userAgent, origin: row.origin },
      });
    }
    return found;
  }
}

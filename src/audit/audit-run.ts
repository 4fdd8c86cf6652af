// The one event of a change made in several transactions (docs/audit.md#changes-in-batches):
// a bulk delete deletes 1,000 submissions a transaction, an erasure a window at a time, and
// each is still exactly one event. The event is opened in the first batch's transaction
// (audit_open_event), its details brought up to date in every later batch's, and chained in
// the transaction that finishes the change — so at every commit the stored event says
// exactly what is committed, and a batch that rolls back takes its update with it. When the
// process dies between batches, the "audit" sweep chains the open event once it has been
// idle for RUN_IDLE_MS, marked `interrupted`, with what the committed batches did.
import type { EntityManager } from 'typeorm';
import { toDate } from '../common/database/sql-dates.js';
import { newUlid } from '../common/values/ulid.js';
import type { AuditAction } from './audit-actions.js';
import type { AuditEvent } from './audit-event.entity.js';
import { canonicalJson, type AuditDetails } from './audit-hash.js';
import type { AuditLogService, AuditRecord } from './audit-log.service.js';
import { storedParts } from './audit-log.service.js';
import type { AuditOpenEvent } from './audit-open-event.entity.js';
import type { AuditOpenEventRepository } from './audit-open-event.repository.js';

/** How long an open event goes untouched before the sweep takes its run for dead. */
export const RUN_IDLE_MS = 5 * 60_000;
/** A run working without batches (an erasure's search) says so this often. */
export const RUN_KEEP_ALIVE_MS = 30_000;

export const RUN_CLOSED =
  'The audit event of this change was closed while the change went on';

export class AuditRun {
  private readonly id = newUlid();
  private opened = false;
  private finished = false;
  private details = '{}';
  private touchedAt = 0;

  constructor(
    private readonly log: AuditLogService,
    private readonly openEvents: AuditOpenEventRepository,
    private readonly record: AuditRecord,
  ) {}

  /** Whether a batch has written the event (it is open, or chained by `finish`). */
  get started(): boolean {
    return this.opened || this.finished;
  }

  /** In a batch's transaction: the event as the change stands once this batch commits. */
  async step(manager: EntityManager, details: AuditDetails): Promise<void> {
    const now = new Date();
    const text = canonicalJson(details);
    if (!this.opened) {
      await this.openEvents.insert(manager, {
        id: this.id,
        accountId: this.record.accountId,
        ...storedParts(this.record),
        details: text,
        openedAt: now,
        touchedAt: now,
      });
      this.opened = true;
    } else if (!(await this.openEvents.touch(manager, this.id, text, now))) {
      // The sweep took the run for dead and chained what it had: this batch rolls back.
      throw new Error(RUN_CLOSED);
    }
    this.details = text;
    this.touchedAt = now.getTime();
  }

  /** In the transaction that finishes the change: the event, with its final details, chained. */
  async finish(
    manager: EntityManager,
    details: AuditDetails,
  ): Promise<AuditEvent> {
    if (this.opened && !(await this.openEvents.delete(manager, this.id))) {
      throw new Error(RUN_CLOSED);
    }
    const event = await this.log.record(manager, { ...this.record, details });
    this.finished = true;
    return event;
  }

  /** The change ended after its last batch (a last look found nothing more): chains it alone. */
  finishAlone(details: AuditDetails): Promise<AuditEvent> {
    return this.log.transaction((manager) => this.finish(manager, details));
  }

  /**
   * The change stopped on an error: chains what its committed batches did, marked
   * interrupted (nothing when no batch committed).
   */
  async abandon(): Promise<void> {
    if (!this.opened) return;
    await this.log.transaction((manager) =>
      closeOpenEvent(this.log, this.openEvents, manager, this.id),
    );
  }

  /**
   * Between batches that may be far apart (an erasure searching a large form): tells the
   * sweep the run is alive, at most every RUN_KEEP_ALIVE_MS.
   */
  async keepAlive(): Promise<void> {
    if (!this.opened || Date.now() - this.touchedAt < RUN_KEEP_ALIVE_MS) return;
    const now = new Date();
    this.touchedAt = now.getTime();
    await this.log.transaction((manager) =>
      this.openEvents.touch(manager, this.id, this.details, now),
    );
  }
}

/** The record of an open event that ended without its run: what it had, and `interrupted`. */
function interruptedRecord(row: AuditOpenEvent): AuditRecord {
  let details: AuditDetails;
  try {
    details = JSON.parse(row.details) as AuditDetails;
  } catch {
    details = { unreadable: row.details };
  }
  return {
    accountId: row.accountId,
    actor: { type: row.actorType, id: row.actorId, label: row.actorLabel },
    client: { ip: row.ip, userAgent: row.userAgent },
    action: row.action as AuditAction,
    target: { type: row.targetType, id: row.targetId },
    details: {
      ...details,
      interrupted: true,
      startedAt: toDate(row.openedAt).toISOString(),
    },
  };
}

/**
 * In `manager`'s transaction: deletes the open event `id` (with `idleBefore`, only if no
 * batch touched it since) and chains it as interrupted. true when it did.
 */
export async function closeOpenEvent(
  log: AuditLogService,
  openEvents: AuditOpenEventRepository,
  manager: EntityManager,
  id: string,
  idleBefore?: Date,
): Promise<boolean> {
  const row = await openEvents.find(manager, id);
  if (!row || !(await openEvents.delete(manager, id, idleBefore))) {
    return false;
  }
  await log.record(manager, interruptedRecord(row));
  return true;
}

/** The sweep's part: chains every open event idle since `cutoff`; answers how many. */
export async function closeIdleRuns(
  log: AuditLogService,
  openEvents: AuditOpenEventRepository,
  cutoff: Date,
  signal?: AbortSignal,
): Promise<number> {
  let closed = 0;
  for (;;) {
    const idle = await openEvents.idleSince(cutoff, 100);
    for (const row of idle) {
      if (signal?.aborted) return closed;
      const done = await log.transaction((manager) =>
        closeOpenEvent(log, openEvents, manager, row.id, cutoff),
      );
      if (done) closed++;
    }
    if (idle.length < 100) return closed;
  }
}

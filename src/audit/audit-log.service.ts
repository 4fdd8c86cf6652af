// The one call every writer makes (docs/audit.md): `record(manager, {…})` inside the
// transaction of the change it records, through the same EntityManager, so the change and
// its event commit or roll back together. `transaction(work)` opens such a transaction.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { ApiPrincipal } from '../auth/principal.js';
import { newUlid } from '../common/values/ulid.js';
import type { AuditAction } from './audit-actions.js';
import {
  asActor,
  clientOf,
  type AuditActor,
  type AuditClient,
} from './audit-actor.js';
import { AuditChainRepository } from './audit-chain.repository.js';
import type { AuditEvent } from './audit-event.entity.js';
import { AuditEventRepository } from './audit-event.repository.js';
import { AuditOpenEventRepository } from './audit-open-event.repository.js';
import { AuditRun } from './audit-run.js';
import { canonicalJson, eventHash, type AuditDetails } from './audit-hash.js';

export interface AuditRecord {
  accountId: string;
  /** The request's principal, or an actor named outright (CLI, system, a member signing in). */
  actor: ApiPrincipal | AuditActor;
  action: AuditAction;
  target: { type: string; id: string | null };
  details?: AuditDetails;
  /** Where the change came from; by default the principal's request. */
  client?: AuditClient;
}

const MAX_USER_AGENT = 512;
const MAX_LABEL = 254;

@Injectable()
export class AuditLogService {
  private readonly sqlite: boolean;
  /** Accounts whose chain row this process has seen exist. */
  private readonly chains = new Set<string>();
  /** SQLite: the audited transactions, one after another (one connection, one writer). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: AuditEventRepository,
    private readonly chainRows: AuditChainRepository,
    private readonly openEvents: AuditOpenEventRepository,
  ) {
    this.sqlite = dataSource.options.type === 'better-sqlite3';
  }

  /**
   * Runs `work` in one transaction. On SQLite TypeORM shares one connection, where two
   * transactions at once would nest: they run one after another instead.
   */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (!this.sqlite) return this.dataSource.transaction(work);
    const run = this.queue.then(() => this.dataSource.transaction(work));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Writes the event in the transaction `manager` belongs to, as the chain's next link. */
  async record(
    manager: EntityManager,
    record: AuditRecord,
  ): Promise<AuditEvent> {
    const { accountId } = record;
    await this.ensureChain(manager, accountId);
    let head = await this.chainRows.lockHead(manager, accountId);
    if (!head) {
      // The row went (its account deleted and made again, a test's reset): make it again.
      this.chains.delete(accountId);
      await this.ensureChain(manager, accountId);
      head = await this.chainRows.lockHead(manager, accountId);
      if (!head) throw new Error(`No audit chain for account ${accountId}`);
    }
    const at = new Date();
    const details = JSON.parse(
      canonicalJson(record.details ?? {}),
    ) as AuditDetails;
    const event: AuditEvent = {
      id: newUlid(at.getTime()),
      accountId,
      seq: Number(head.headSeq) + 1,
      at,
      ...storedParts(record),
      details: canonicalJson(details),
      hash: '',
    };
    event.hash = eventHash(head.headHash, hashedOf(event));
    await this.events.insert(manager, event);
    await this.chainRows.advanceHead(manager, accountId, event.seq, event.hash);
    return event;
  }

  /**
   * Runs `change` in a transaction and records `record` in it when the change reports it
   * changed something (true); false: nothing changed, no event.
   */
  async recordChange(
    record: AuditRecord,
    change: (manager: EntityManager) => Promise<boolean>,
  ): Promise<boolean> {
    return this.transaction(async (manager) => {
      if (!(await change(manager))) return false;
      await this.record(manager, record);
      return true;
    });
  }

  /**
   * The one event of a change made in several transactions (a bulk delete's batches, an
   * erasure's windows): each batch brings it up to date in its own transaction, and the
   * one that finishes the change chains it (audit-run.ts).
   */
  openRun(record: AuditRecord): AuditRun {
    return new AuditRun(this, this.openEvents, record);
  }

  /** `transaction` and `record` for a change that is the event alone (an export, a sign-in). */
  recordAlone(record: AuditRecord): Promise<AuditEvent> {
    return this.transaction((manager) => this.record(manager, record));
  }

  private async ensureChain(
    manager: EntityManager,
    accountId: string,
  ): Promise<void> {
    if (this.chains.has(accountId)) return;
    // MySQL/MariaDB: outside the change's transaction (its own connection), so two first
    // events of an account cannot deadlock on the new row's key.
    await this.chainRows.ensure(
      this.sqlite ? manager : this.dataSource.manager,
      accountId,
    );
    this.chains.add(accountId);
  }
}

/** Who acted, on what, and from where, as an event stores them. */
export function storedParts(
  record: AuditRecord,
): Pick<
  AuditEvent,
  | 'actorType'
  | 'actorId'
  | 'actorLabel'
  | 'action'
  | 'targetType'
  | 'targetId'
  | 'ip'
  | 'userAgent'
> {
  const actor = asActor(record.actor);
  const client =
    record.client ??
    ('kind' in record.actor
      ? clientOf(record.actor)
      : { ip: null, userAgent: null });
  return {
    actorType: actor.type,
    actorId: actor.id,
    actorLabel: actor.label.slice(0, MAX_LABEL),
    action: record.action,
    targetType: record.target.type,
    targetId: record.target.id,
    ip: client.ip?.slice(0, 64) ?? null,
    userAgent: client.userAgent?.slice(0, MAX_USER_AGENT) ?? null,
  };
}

/** What the hash covers of a stored event. */
export function hashedOf(event: AuditEvent): Parameters<typeof eventHash>[1] {
  let details: AuditDetails;
  try {
    details = JSON.parse(event.details) as AuditDetails;
  } catch {
    details = { unreadable: event.details };
  }
  return {
    id: event.id,
    accountId: event.accountId,
    seq: Number(event.seq),
    at: event.at,
    actor: {
      type: event.actorType,
      id: event.actorId,
      label: event.actorLabel,
    },
    action: event.action,
    target: { type: event.targetType, id: event.targetId },
    details,
    ip: event.ip,
    userAgent: event.userAgent,
  };
}

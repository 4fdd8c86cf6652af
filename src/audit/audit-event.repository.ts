// Every statement on audit_event: an event written (AuditLogService.record, in the transaction of
// the change it records), the list and export (newest first, keyset paging on the id), the
// chains' walk for verification, and the retention sweep's deletions.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  Brackets,
  DataSource,
  type EntityManager,
  type SelectQueryBuilder,
} from 'typeorm';
import { AuditEvent } from './audit-event.entity.js';

export interface AuditFilters {
  /** Events whose action starts with this ("member." for every member event). */
  action?: string;
  actorId?: string;
  targetId?: string;
  from?: Date;
  to?: Date;
}

function likePrefix(text: string): string {
  return `${text.replace(/[!%_]/g, (c) => `!${c}`)}%`;
}

@Injectable()
export class AuditEventRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Writes an event, in the transaction of the change it records. */
  async insert(manager: EntityManager, event: AuditEvent): Promise<void> {
    await manager.insert(AuditEvent, event);
  }

  private filtered(
    accountId: string,
    filters: AuditFilters,
  ): SelectQueryBuilder<AuditEvent> {
    const query = this.dataSource
      .getRepository(AuditEvent)
      .createQueryBuilder('e')
      .where('e.accountId = :accountId', { accountId });
    if (filters.action) {
      query.andWhere("e.action LIKE :action ESCAPE '!'", {
        action: likePrefix(filters.action),
      });
    }
    if (filters.actorId) query.andWhere('e.actorId = :actorId', filters);
    if (filters.targetId) query.andWhere('e.targetId = :targetId', filters);
    if (filters.from) query.andWhere('e.at >= :from', { from: filters.from });
    if (filters.to) query.andWhere('e.at < :to', { to: filters.to });
    return query;
  }

  /** A page of events, newest first, strictly before `before` (an id) when given. */
  page(
    accountId: string,
    filters: AuditFilters,
    limit: number,
    before?: string,
  ): Promise<AuditEvent[]> {
    const query = this.filtered(accountId, filters);
    if (before !== undefined) {
      query.andWhere(
        new Brackets((q) => q.where('e.id < :before', { before })),
      );
    }
    return query.orderBy('e.id', 'DESC').take(limit).getMany();
  }

  /** The account's events after `afterSeq`, in chain order, `limit` at a time. */
  chainAfter(
    accountId: string,
    afterSeq: number,
    limit: number,
  ): Promise<AuditEvent[]> {
    return this.dataSource
      .getRepository(AuditEvent)
      .createQueryBuilder('e')
      .where('e.accountId = :accountId AND e.seq > :afterSeq', {
        accountId,
        afterSeq,
      })
      .orderBy('e.seq', 'ASC')
      .take(limit)
      .getMany();
  }

  /** The oldest events (by id) recorded before `cutoff`, across accounts. */
  oldestBefore(cutoff: Date, limit: number): Promise<AuditEvent[]> {
    return this.dataSource
      .getRepository(AuditEvent)
      .createQueryBuilder('e')
      .select(['e.id', 'e.accountId', 'e.seq', 'e.hash'])
      .where('e.at < :cutoff', { cutoff })
      .orderBy('e.id', 'ASC')
      .take(limit)
      .getMany();
  }

  /**
   * Deletes the account's events up to `seq` (the chain's oldest), in the caller's
   * transaction (the one that moves the chain's anchor there).
   */
  async deleteThrough(
    manager: EntityManager,
    accountId: string,
    seq: number,
  ): Promise<number> {
    const result = await manager
      .createQueryBuilder()
      .delete()
      .from(AuditEvent)
      .where('accountId = :accountId AND seq <= :seq', { accountId, seq })
      .execute();
    return result.affected ?? 0;
  }
}

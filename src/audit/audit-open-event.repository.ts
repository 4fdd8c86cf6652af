// Every statement on audit_open_event, the events of changes under way in batches
// (audit-run.ts): each runs in the caller's transaction, the batch's own.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, LessThan, type EntityManager } from 'typeorm';
import { AuditOpenEvent } from './audit-open-event.entity.js';

@Injectable()
export class AuditOpenEventRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(manager: EntityManager, row: AuditOpenEvent): Promise<void> {
    await manager.insert(AuditOpenEvent, row);
  }

  /** Writes the details as they now stand; false when the event is no longer open. */
  async touch(
    manager: EntityManager,
    id: string,
    details: string,
    at: Date,
  ): Promise<boolean> {
    const result = await manager.update(
      AuditOpenEvent,
      { id },
      { details, touchedAt: at },
    );
    return (result.affected ?? 0) > 0;
  }

  find(manager: EntityManager, id: string): Promise<AuditOpenEvent | null> {
    return manager.findOneBy(AuditOpenEvent, { id });
  }

  /**
   * Deletes the open event (it is being chained); with `idleBefore`, only while no batch
   * has touched it since. false when there was none to delete.
   */
  async delete(
    manager: EntityManager,
    id: string,
    idleBefore?: Date,
  ): Promise<boolean> {
    const result = await manager.delete(AuditOpenEvent, {
      id,
      ...(idleBefore ? { touchedAt: LessThan(idleBefore) } : {}),
    });
    return (result.affected ?? 0) > 0;
  }

  /** The open events no batch has touched since `cutoff`, oldest first. */
  idleSince(cutoff: Date, limit: number): Promise<AuditOpenEvent[]> {
    return this.dataSource.getRepository(AuditOpenEvent).find({
      where: { touchedAt: LessThan(cutoff) },
      order: { touchedAt: 'ASC', id: 'ASC' },
      take: limit,
    });
  }
}

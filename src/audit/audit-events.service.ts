// Reading the audit log: a page of events (newest first, keyset paging on the id) and the
// export, the same filters streamed as NDJSON in batches that take turns on the event loop.
import { BadRequestException, Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';
import { ulidTime } from '../common/values/ulid.js';
import type { AuditEvent } from './audit-event.entity.js';
import {
  AuditEventRepository,
  type AuditFilters,
} from './audit-event.repository.js';
import type {
  AuditEventDto,
  AuditEventPageDto,
} from './dto/audit-event.dto.js';
import {
  DEFAULT_AUDIT_PAGE_SIZE,
  type AuditFiltersQueryDto,
  type ListAuditEventsQueryDto,
} from './dto/audit-events-query.dto.js';

export const INVALID_AUDIT_CURSOR =
  'Invalid cursor: pass the nextCursor of the previous page unchanged';

const EXPORT_BATCH = 500;

export function encodeAuditCursor(id: string): string {
  return Buffer.from(id, 'utf8').toString('base64url');
}

export function decodeAuditCursor(cursor: string): string | undefined {
  if (!/^[A-Za-z0-9_-]{1,80}$/.test(cursor)) return undefined;
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (Number.isNaN(ulidTime(id))) return undefined;
  return encodeAuditCursor(id) === cursor ? id : undefined;
}

/** The filters of a query, its instants read (the DTO checked them). */
export function filtersOf(query: AuditFiltersQueryDto): AuditFilters {
  return {
    ...(query.action ? { action: query.action } : {}),
    ...(query.actorId ? { actorId: query.actorId } : {}),
    ...(query.targetId ? { targetId: query.targetId } : {}),
    ...(query.from ? { from: new Date(query.from) } : {}),
    ...(query.to ? { to: new Date(query.to) } : {}),
  };
}

@Injectable()
export class AuditEventsService {
  constructor(private readonly events: AuditEventRepository) {}

  toDto(event: AuditEvent): AuditEventDto {
    return {
      id: event.id,
      at: event.at.toISOString(),
      actor: {
        type: event.actorType,
        id: event.actorId,
        label: event.actorLabel,
      },
      action: event.action,
      target: { type: event.targetType, id: event.targetId },
      details: JSON.parse(event.details) as Record<string, unknown>,
      ip: event.ip,
      userAgent: event.userAgent,
      hash: event.hash,
    };
  }

  async list(
    accountId: string,
    query: ListAuditEventsQueryDto,
  ): Promise<AuditEventPageDto> {
    let before: string | undefined;
    if (query.cursor !== undefined) {
      before = decodeAuditCursor(query.cursor);
      if (before === undefined) {
        throw new BadRequestException(INVALID_AUDIT_CURSOR);
      }
    }
    const limit = query.limit ?? DEFAULT_AUDIT_PAGE_SIZE;
    const rows = await this.events.page(
      accountId,
      filtersOf(query),
      limit + 1,
      before,
    );
    const page = rows.slice(0, limit);
    return {
      data: page.map((event) => this.toDto(event)),
      nextCursor:
        rows.length > limit
          ? encodeAuditCursor(page[page.length - 1].id)
          : null,
    };
  }

  /** Every matching event, newest first, one JSON object a line. */
  exportNdjson(accountId: string, query: AuditFiltersQueryDto): Readable {
    const filters = filtersOf(query);
    const events = this.events;
    const toDto = (event: AuditEvent) => this.toDto(event);
    async function* lines(): AsyncGenerator<string> {
      let before: string | undefined;
      for (;;) {
        const batch = await events.page(
          accountId,
          filters,
          EXPORT_BATCH,
          before,
        );
        if (batch.length > 0) {
          yield batch
            .map((event) => `${JSON.stringify(toDto(event))}\n`)
            .join('');
        }
        if (batch.length < EXPORT_BATCH) return;
        before = batch[batch.length - 1].id;
      }
    }
    return Readable.from(lines());
  }
}

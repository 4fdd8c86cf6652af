import {
  Controller,
  Get,
  Query,
  Res,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AuditEventsService } from '../../audit/audit-events.service.js';
import { Requires } from '../../auth/route-access.decorator.js';
import { WithDeadline } from '../../common/http/deadline.interceptor.js';
import { Dashboard, type DashboardContext } from '../dashboard-context.js';
import { DashboardExceptionFilter } from '../dashboard-exception.filter.js';
import { PageErrors } from '../page-errors.js';
import { SignedInGuard } from '../session/dashboard.guards.js';

const PAGE_SIZE = 50;
const ACTION = /^[a-z_.]{1,64}$/;
const INSTANT =
  /^\d{4}-\d\d-\d\d(T\d\d:\d\d(:\d\d(\.\d{1,3})?)?(Z|[+-]\d\d:\d\d)?)?$/;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

type Filters = Record<
  'action' | 'actorId' | 'targetId' | 'from' | 'to',
  string
>;

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/** The filters typed into the page, and what is wrong with them. */
function readFilters(query: Record<string, unknown>): {
  filters: Filters;
  errors: PageErrors;
} {
  const filters: Filters = {
    action: text(query.action),
    actorId: text(query.actorId),
    targetId: text(query.targetId),
    from: text(query.from),
    to: text(query.to),
  };
  const errors = new PageErrors();
  if (filters.action && !ACTION.test(filters.action)) {
    errors.add(
      'An action is lower-case letters, dots and underscores',
      'action',
    );
  }
  for (const key of ['actorId', 'targetId'] as const) {
    if (filters[key] && !ID.test(filters[key])) errors.add('Not an id', key);
  }
  for (const key of ['from', 'to'] as const) {
    if (
      filters[key] &&
      (!INSTANT.test(filters[key]) || Number.isNaN(Date.parse(filters[key])))
    ) {
      errors.add('A date such as 2026-12-01, or 2026-12-01T12:00Z', key);
    }
  }
  return { filters, errors };
}

/** The account's audit log, with the API's filters (owners and admins: `audit.read`). */
@ApiExcludeController()
@WithDeadline()
@Controller('dashboard/account/audit')
@UseGuards(SignedInGuard)
@UseFilters(DashboardExceptionFilter)
export class DashboardAuditController {
  constructor(private readonly events: AuditEventsService) {}

  @Get()
  @Requires('audit.read')
  async page(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Query() query: Record<string, unknown>,
  ) {
    const { filters, errors } = readFilters(query ?? {});
    const cursor = text(query?.cursor);
    if (errors.any) {
      return reply.status(400).view('audit', { filters, errors, events: [] });
    }
    const given: Record<string, string> = Object.fromEntries(
      Object.entries(filters).filter(([, value]) => value !== ''),
    );
    const page = await this.events
      .list(
        context.account.id,
        Object.assign({ limit: PAGE_SIZE }, given, cursor ? { cursor } : {}),
      )
      .catch(() => undefined);
    if (!page) {
      return reply.status(400).view('audit', {
        filters,
        errors: new PageErrors().add(
          'That page link is not valid: start again',
        ),
        events: [],
      });
    }
    const next = page.nextCursor
      ? `?${new URLSearchParams({ ...given, cursor: page.nextCursor }).toString()}`
      : null;
    return reply.view('audit', {
      filters,
      errors,
      events: page.data.map((event) => ({
        id: event.id,
        at: event.at,
        actor: event.actor,
        action: event.action,
        target: event.target,
        ip: event.ip,
        detailsText: JSON.stringify(event.details),
      })),
      next,
    });
  }
}

// Reading the delivery log (per form, per webhook) and retrying a delivery.
import {
  ConflictException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { ValidationFailedException } from '../../common/errors/errors.js';
import { DeliveryRepository } from './delivery.repository.js';
import type { Delivery } from './delivery.entity.js';
import { CommitNotifier } from './commit-notifier.js';
import { NotificationLimiter } from '../notification-limiter.js';
import {
  DEFAULT_DELIVERY_PAGE,
  type DeliveryAttemptDto,
  type DeliveryListResponseDto,
  type DeliveryResponseDto,
} from './dto/delivery-response.dto.js';

export const DELIVERY_NOT_FOUND = 'Delivery not found';
export const INVALID_DELIVERY_CURSOR =
  'Invalid cursor: pass the nextCursor of the previous page unchanged';
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

@Injectable()
export class DeliveriesService {
  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly signal: CommitNotifier,
    private readonly limits: NotificationLimiter,
  ) {}

  /** The one place a delivery row becomes what the API shows. */
  toResponse(row: Delivery): DeliveryResponseDto {
    return {
      id: row.id,
      channel: row.channel,
      target: row.target,
      event: row.event,
      submissionId: row.submissionId,
      status: row.status,
      attempts: row.attempts,
      nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
      lastStatusCode: row.lastStatusCode,
      lastError: row.lastError,
      lastDurationMs: row.lastDurationMs,
      createdAt: row.createdAt.toISOString(),
      deliveredAt: row.deliveredAt?.toISOString() ?? null,
    };
  }

  /** Newest first; `webhookId` narrows the log to one webhook. */
  async list(
    formId: string,
    query: { limit?: number; cursor?: string },
    webhookId?: string,
  ): Promise<DeliveryListResponseDto> {
    const limit = query.limit ?? DEFAULT_DELIVERY_PAGE;
    if (query.cursor !== undefined && !ULID.test(query.cursor)) {
      throw new ValidationFailedException([INVALID_DELIVERY_CURSOR]);
    }
    const rows = await this.deliveries.page(
      formId,
      limit + 1,
      query.cursor,
      webhookId,
    );
    const page = rows.slice(0, limit);
    return {
      data: page.map((row) => this.toResponse(row)),
      nextCursor: rows.length > limit ? page[page.length - 1].id : null,
    };
  }

  /** Rows for the dashboard: the page and each delivery's attempts, oldest first. */
  async attemptsOf(ids: string[]): Promise<Map<string, DeliveryAttemptDto[]>> {
    const byDelivery = new Map<string, DeliveryAttemptDto[]>();
    if (ids.length === 0) return byDelivery;
    const rows = await this.deliveries.attempts(ids);
    for (const row of rows) {
      const list = byDelivery.get(row.deliveryId) ?? [];
      list.push({
        at: row.at.toISOString(),
        statusCode: row.statusCode,
        error: row.error,
        durationMs: row.durationMs,
      });
      byDelivery.set(row.deliveryId, list);
    }
    return byDelivery;
  }

  async find(
    formId: string,
    deliveryId: string,
    webhookId?: string,
  ): Promise<Delivery> {
    const row = ULID.test(deliveryId)
      ? await this.deliveries.findInForm(formId, deliveryId)
      : null;
    if (
      row === null ||
      (webhookId !== undefined &&
        (row.channel !== 'webhook' || row.target !== webhookId))
    ) {
      throw new NotFoundException(DELIVERY_NOT_FOUND);
    }
    return row;
  }

  /**
   * Makes a delivery due now with its retry schedule started afresh (`attempts` keeps
   * counting); one still waiting for its first try is simply due now. Refused while it is
   * being sent, and past RETRIES_PER_FORM a minute.
   */
  async retry(
    formId: string,
    deliveryId: string,
    webhookId?: string,
  ): Promise<DeliveryResponseDto> {
    const row = await this.find(formId, deliveryId, webhookId);
    await this.limits.spendRetry(formId);
    const now = new Date();
    if (row.leaseUntil !== null && row.leaseUntil > now) {
      throw new ConflictException(
        'This delivery is being sent right now: retry once the attempt is recorded',
      );
    }
    if (!(await this.deliveries.retry(row.id, row.status, now))) {
      throw new ConflictException(
        'This delivery changed meanwhile: read it again before retrying',
      );
    }
    this.signal.committed();
    return this.toResponse(
      Object.assign(row, {
        status: 'pending',
        nextAttemptAt: now,
        scheduleStart: row.attempts,
        leaseOwner: null,
        leaseUntil: null,
      }),
    );
  }
}

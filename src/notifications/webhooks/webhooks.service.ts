// The management side of a form's webhooks: create (secret shown once), list, read,
// change, delete, rotate the secret, send a test event. Every change of the set of enabled
// webhooks is announced as a change of the form, so the submit path's cached targets follow.
import { CHANGED, changesOf } from '../../audit/audit-details.js';
import { SYSTEM_ACTOR, type AuditActor } from '../../audit/audit-actor.js';
import type { AuditDetails } from '../../audit/audit-hash.js';
import { AuditLogService } from '../../audit/audit-log.service.js';
import type { ApiPrincipal } from '../../auth/principal.js';
import {
  ConflictException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { SecretBoxService } from '../../auth/secret-box.service.js';
import { ValidationFailedException } from '../../common/errors/errors.js';
import { AppConfig } from '../../config/app-config.js';
import { FormChangesService } from '../../forms/changes/form-changes.service.js';
import { DeliveriesService } from '../deliveries/deliveries.service.js';
import { FormRepository } from '../../forms/form.repository.js';
import { DeliveryCleanupSweep } from '../deliveries/delivery-cleanup-sweep.js';
import { NotificationLimiter } from '../notification-limiter.js';
import { DeliveryRepository } from '../deliveries/delivery.repository.js';
import { testDelivery } from '../deliveries/test-delivery.js';
import { CommitNotifier } from '../deliveries/commit-notifier.js';
import type { DeliveryResponseDto } from '../deliveries/dto/delivery-response.dto.js';
import { WEBHOOK_TEST } from '../outbox/outbox-entry.js';
import type { Webhook } from './webhook.entity.js';
import { WebhookRepository } from './webhook.repository.js';
import {
  BlockedAddressError,
  checkUrlShape,
  hostOf,
  resolvePublic,
} from './address-guard.js';
import type {
  CreateWebhookDto,
  PatchWebhookDto,
} from './dto/webhook-input.dto.js';
import type {
  CreatedWebhookResponseDto,
  WebhookResponseDto,
} from './dto/webhook-response.dto.js';
import { newWebhookSecret } from './signing.js';

export const WEBHOOK_NOT_FOUND = 'Webhook not found';
export const MAX_WEBHOOKS_PER_FORM = 10;
/** How long the secret before a rotation keeps signing. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

export function tooManyWebhooksMessage(max = MAX_WEBHOOKS_PER_FORM): string {
  return `This form already has ${max} webhooks, the most it can have: delete one before adding another`;
}

/** Who changes a form's webhooks, and the form's account (the audit log's). */
export interface WebhookActor {
  accountId: string;
  actor: ApiPrincipal | AuditActor;
}

@Injectable()
export class WebhooksService {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly forms: FormRepository,
    private readonly secrets: SecretBoxService,
    private readonly config: AppConfig,
    private readonly changes: FormChangesService,
    private readonly log: DeliveriesService,
    private readonly signal: CommitNotifier,
    private readonly cleanup: DeliveryCleanupSweep,
    private readonly limits: NotificationLimiter,
    private readonly auditLog: AuditLogService,
  ) {}

  /** The one place a webhook row becomes what the API shows. */
  toResponse(row: Webhook): WebhookResponseDto {
    return {
      id: row.id,
      url: row.url,
      description: row.description ?? null,
      enabled: Boolean(row.enabled),
      disabledReason: row.disabledReason ?? null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }

  async list(formId: string): Promise<WebhookResponseDto[]> {
    const rows = await this.webhooks.listOf(formId);
    return rows.map((row) => this.toResponse(row));
  }

  async find(formId: string, webhookId: string): Promise<Webhook> {
    const row =
      typeof webhookId === 'string' && webhookId.length <= 32
        ? await this.webhooks.find(formId, webhookId)
        : null;
    if (row === null) throw new NotFoundException(WEBHOOK_NOT_FOUND);
    return row;
  }

  async get(formId: string, webhookId: string): Promise<WebhookResponseDto> {
    return this.toResponse(await this.find(formId, webhookId));
  }

  async create(
    formId: string,
    input: CreateWebhookDto,
    by?: WebhookActor,
  ): Promise<CreatedWebhookResponseDto> {
    const url = await this.checkUrl(input.url);
    if ((await this.webhooks.countOf(formId)) >= MAX_WEBHOOKS_PER_FORM) {
      throw new ConflictException(tooManyWebhooksMessage());
    }
    const secret = newWebhookSecret();
    const now = new Date();
    const row = this.webhooks.create({
      id: randomBytes(16).toString('base64url'),
      formId,
      url,
      description: emptyToNull(input.description),
      enabled: input.enabled ?? true,
      disabledReason: null,
      secretEncrypted: this.secrets.encrypt(secret),
      previousSecretEncrypted: null,
      previousSecretExpiresAt: null,
      failingSince: null,
      createdAt: now,
      updatedAt: now,
    });
    await this.audited(formId, row.id, by, { change: 'created', url }, (m) =>
      this.webhooks
        .in(m)
        .insert(row)
        .then(() => true),
    );
    this.changes.changed(formId);
    return Object.assign(this.toResponse(row), { secret });
  }

  async patch(
    formId: string,
    webhookId: string,
    input: PatchWebhookDto,
    by?: WebhookActor,
  ): Promise<WebhookResponseDto> {
    const row = await this.find(formId, webhookId);
    const changes: Partial<Webhook> = {};
    if (input.url !== undefined) changes.url = await this.checkUrl(input.url);
    if (input.description !== undefined) {
      changes.description = emptyToNull(input.description);
    }
    if (input.enabled !== undefined) {
      changes.enabled = input.enabled;
      // Turned on by its owner: whatever turned it off is over, and so is its failing run.
      if (input.enabled) {
        changes.disabledReason = null;
        changes.failingSince = null;
      }
    }
    const details = changesOf<Webhook>(row, changes, [
      'url',
      'description',
      'enabled',
    ]);
    changes.updatedAt = new Date();
    await this.audited(
      formId,
      row.id,
      by,
      { change: 'updated', ...details },
      (m) =>
        this.webhooks
          .in(m)
          .update(row.id, changes)
          .then(() => true),
    );
    this.changes.changed(formId);
    return this.toResponse(Object.assign(row, changes));
  }

  /**
   * Deletes the webhook and its deliveries with their attempts. The deliveries go first,
   * so a deletion cut short leaves a webhook whose deletion can be repeated; those made
   * meanwhile go after the row.
   */
  async remove(
    formId: string,
    webhookId: string,
    by?: WebhookActor,
  ): Promise<void> {
    const row = await this.find(formId, webhookId);
    await this.cleanup.deleteOfWebhook(row.id);
    await this.audited(
      formId,
      row.id,
      by,
      { change: 'deleted', url: row.url },
      (m) =>
        this.webhooks
          .in(m)
          .delete(row.id)
          .then(() => true),
    );
    this.changes.changed(formId);
    await this.cleanup.deleteOfWebhook(row.id);
  }

  /** A new secret; the old one keeps signing (a second signature) for 24 hours. */
  async rotateSecret(
    formId: string,
    webhookId: string,
    by?: WebhookActor,
  ): Promise<{ secret: string }> {
    const row = await this.webhooks.withSecret(formId, webhookId);
    if (row === null) throw new NotFoundException(WEBHOOK_NOT_FOUND);
    const secret = newWebhookSecret();
    const now = new Date();
    await this.audited(
      formId,
      row.id,
      by,
      { change: 'secret_rotated', secret: CHANGED },
      (m) =>
        this.webhooks
          .in(m)
          .update(row.id, {
            secretEncrypted: this.secrets.encrypt(secret),
            previousSecretEncrypted: row.secretEncrypted,
            previousSecretExpiresAt: new Date(
              now.getTime() + ROTATION_OVERLAP_MS,
            ),
            updatedAt: now,
          })
          .then(() => true),
    );
    return { secret };
  }

  /** Runs `change` with its `webhook.updated` event, in one transaction. */
  private async audited(
    formId: string,
    webhookId: string,
    by: WebhookActor | undefined,
    details: AuditDetails,
    change: (manager: EntityManager) => Promise<boolean>,
  ): Promise<void> {
    const accountId =
      by?.accountId ??
      (await this.forms.summaries([formId])).get(formId)?.accountId;
    if (accountId === undefined) throw new NotFoundException(WEBHOOK_NOT_FOUND);
    await this.auditLog.recordChange(
      {
        accountId,
        actor: by?.actor ?? SYSTEM_ACTOR,
        action: 'webhook.updated',
        target: { type: 'webhook', id: webhookId },
        details: { formId, ...details },
      },
      change,
    );
  }

  /**
   * Queues a `webhook.test` event, due now (refused while the webhook is off, and past
   * TESTS_PER_WEBHOOK a minute).
   */
  async test(formId: string, webhookId: string): Promise<DeliveryResponseDto> {
    const row = await this.find(formId, webhookId);
    if (!row.enabled) {
      throw new ConflictException(
        'This webhook is turned off: turn it on before sending a test event',
      );
    }
    await this.limits.spendTest(row.id);
    const form = (await this.forms.summaries([formId])).get(formId);
    if (form === undefined) throw new NotFoundException(WEBHOOK_NOT_FOUND);
    const delivery = testDelivery({
      formId,
      accountId: form.accountId,
      channel: 'webhook',
      target: row.id,
      event: WEBHOOK_TEST,
    });
    await this.deliveries.insert([delivery]);
    this.signal.committed();
    return this.log.toResponse(delivery);
  }

  /** The URL as stored, or 400 with the reason it is refused. */
  private async checkUrl(raw: string): Promise<string> {
    const shape = checkUrlShape(raw.trim());
    if (!shape.ok) {
      throw new ValidationFailedException(
        [`url ${shape.problem}`],
        [{ field: 'url', code: 'url', detail: shape.problem }],
      );
    }
    if (this.config.webhookAllowPrivate) return shape.url.toString();
    const host = hostOf(shape.url);
    try {
      await resolvePublic(host, this.config.dnsServers);
    } catch (error) {
      throw unreachable(
        error instanceof BlockedAddressError
          ? error.message
          : `the host ${host} could not be resolved`,
      );
    }
    return shape.url.toString();
  }
}

/** The code of a URL refused for where it leads (the ValidationFailedException's issue). */
export const WEBHOOK_URL_UNREACHABLE = 'unreachable';

function unreachable(detail: string): ValidationFailedException {
  return new ValidationFailedException(
    [`url: ${detail}`],
    [{ field: 'url', code: WEBHOOK_URL_UNREACHABLE, detail }],
  );
}

function emptyToNull(value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

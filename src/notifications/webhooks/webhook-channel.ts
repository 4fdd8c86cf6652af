// The webhook channel: one signed POST per attempt to the webhook's URL. It also keeps the
// webhook's health: a 410 turns it off at once, and so do five days of nothing but failures
// (the owner is told).
import { Inject, Injectable, Logger } from '@nestjs/common';
import { SecretBoxService } from '../../auth/secret-box.service.js';
import { AppConfig } from '../../config/app-config.js';
import { FormChangesService } from '../../forms/changes/form-changes.service.js';
import { FormRepository } from '../../forms/form.repository.js';
import {
  OWNER_ALERTS,
  type AttemptOutcome,
  type ChannelItem,
  type DeliveryToSend,
  type NotificationChannel,
  type OwnerAlerts,
  type PreparedAttempt,
  type SubmissionNotice,
} from '../notification-channel.js';
import { SUBMISSION_CREATED, WEBHOOK_TEST } from '../outbox/outbox-entry.js';
import type { Webhook } from './webhook.entity.js';
import { WebhookRepository } from './webhook.repository.js';
import { postWebhook } from './http-sender.js';
import { signedHeaders } from './signing.js';

/** A webhook failing without a single success for this long is turned off. */
export const FAILING_DISABLE_MS = 5 * 24 * 3600 * 1000;
export const GONE_REASON =
  'The endpoint answered 410 Gone: the webhook was turned off';
export const FAILING_REASON =
  'Every delivery failed for 5 days: the webhook was turned off';
const MAX_ERROR = 500;

/** The JSON body a receiver gets, as a string (the signature covers these exact bytes). */
export function webhookBody(
  delivery: DeliveryToSend,
  submission: SubmissionNotice | null,
): string | null {
  if (delivery.event === SUBMISSION_CREATED) {
    if (submission === null) return null;
    return JSON.stringify({
      type: SUBMISSION_CREATED,
      timestamp: submission.createdAt.toISOString(),
      data: {
        formId: submission.formId,
        submissionId: submission.id,
        createdAt: submission.createdAt.toISOString(),
        data: submission.data,
        meta: submission.meta,
      },
    });
  }
  return JSON.stringify({
    type: WEBHOOK_TEST,
    timestamp: (delivery.createdAt ?? new Date()).toISOString(),
    data: { formId: delivery.formId, webhookId: delivery.target },
  });
}

function refuse(error: string): PreparedAttempt {
  const outcome: AttemptOutcome = {
    ok: false,
    statusCode: null,
    error,
    durationMs: 0,
    final: true,
  };
  return () => Promise.resolve(outcome);
}

function failureText(statusCode: number, body: string): string {
  const redirect =
    statusCode >= 300 && statusCode < 400
      ? ' (redirects are not followed)'
      : '';
  const snippet = body.replace(/\s+/g, ' ').trim();
  const text = `HTTP ${statusCode}${redirect}${snippet ? `: ${snippet}` : ''}`;
  return text.length > MAX_ERROR ? `${text.slice(0, MAX_ERROR - 1)}…` : text;
}

@Injectable()
export class WebhookChannel implements NotificationChannel {
  readonly name = 'webhook' as const;
  private readonly logger = new Logger('Webhooks');

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly forms: FormRepository,
    private readonly secrets: SecretBoxService,
    private readonly config: AppConfig,
    private readonly changes: FormChangesService,
    @Inject(OWNER_ALERTS) private readonly alerts: OwnerAlerts,
  ) {}

  async targetsFor(formId: string): Promise<string[]> {
    return this.webhooks.enabledOf(formId);
  }

  async send(
    delivery: DeliveryToSend,
    submission: SubmissionNotice | null,
    signal: AbortSignal,
  ): Promise<AttemptOutcome> {
    const [attempt] = await this.prepare([{ delivery, submission }]);
    return attempt(signal);
  }

  async prepare(items: readonly ChannelItem[]): Promise<PreparedAttempt[]> {
    const ids = [...new Set(items.map(({ delivery }) => delivery.target))];
    const rows = await this.webhooks.withSecrets(ids);
    const hooks = new Map(rows.map((hook) => [hook.id, hook]));
    const secrets = new Map<string, string[]>();
    return items.map(({ delivery, submission }) => {
      const hook = hooks.get(delivery.target);
      if (hook === undefined) return refuse('The webhook was deleted');
      if (!hook.enabled) return refuse('The webhook is turned off');
      const body = webhookBody(delivery, submission);
      if (body === null) {
        return refuse('The submission was deleted before it could be sent');
      }
      let live = secrets.get(hook.id);
      if (live === undefined) {
        live = this.liveSecrets(hook, Date.now());
        secrets.set(hook.id, live);
      }
      const signing = live;
      return (signal) => this.post(hook, delivery, body, signing, signal);
    });
  }

  /** The secrets deliveries are signed with: the current one, and the previous for 24 h. */
  private liveSecrets(hook: Webhook, now: number): string[] {
    const live = [this.secrets.decrypt(hook.secretEncrypted)];
    if (
      hook.previousSecretEncrypted &&
      hook.previousSecretExpiresAt &&
      hook.previousSecretExpiresAt.getTime() > now
    ) {
      live.push(this.secrets.decrypt(hook.previousSecretEncrypted));
    }
    return live;
  }

  private async post(
    hook: Webhook,
    delivery: DeliveryToSend,
    body: string,
    live: string[],
    signal: AbortSignal,
  ): Promise<AttemptOutcome> {
    const now = Date.now();
    const started = performance.now();
    const result = await postWebhook({
      url: hook.url,
      headers: signedHeaders(live, delivery.id, Math.floor(now / 1000), body),
      body,
      signal,
      allowPrivate: this.config.webhookAllowPrivate,
      dnsServers: this.config.dnsServers,
    });
    const durationMs = Math.round(performance.now() - started);
    const status = result.statusCode;
    if (status !== null && status >= 200 && status < 300) {
      if (hook.failingSince !== null) {
        // The hook object is shared by the attempts prepared together: one write clears it.
        hook.failingSince = null;
        await this.webhooks.clearFailing(hook.id);
      }
      return { ok: true, statusCode: status, error: null, durationMs };
    }
    const error =
      status === null
        ? (result.error ?? 'Request failed')
        : failureText(status, result.body);
    if (status === 410) {
      await this.disable(hook, GONE_REASON);
      return { ok: false, statusCode: status, error, durationMs, final: true };
    }
    await this.noteFailure(hook, new Date(now));
    return { ok: false, statusCode: status, error, durationMs };
  }

  private async noteFailure(hook: Webhook, now: Date): Promise<void> {
    if (hook.failingSince === null) {
      await this.webhooks.markFailing(hook.id, now);
      hook.failingSince = now;
      return;
    }
    if (now.getTime() - hook.failingSince.getTime() < FAILING_DISABLE_MS) {
      return;
    }
    if (await this.disable(hook, FAILING_REASON)) {
      const form = (await this.forms.summaries([hook.formId])).get(hook.formId);
      if (form === undefined) return;
      await this.alerts
        .alert(form.accountId, {
          type: 'webhook-failing',
          formId: hook.formId,
          webhookId: hook.id,
          since: hook.failingSince,
        })
        .catch((error: Error) =>
          this.logger.warn(`Cannot alert the owner: ${error.message}`),
        );
    }
  }

  /** true when this call turned it off. */
  private async disable(hook: Webhook, reason: string): Promise<boolean> {
    const disabled = await this.webhooks.disable(hook.id, reason, new Date());
    this.changes.changed(hook.formId);
    if (!disabled) return false;
    this.logger.warn(`Webhook ${hook.id} of form ${hook.formId}: ${reason}`);
    return true;
  }
}

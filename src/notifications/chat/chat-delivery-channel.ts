// The chat channel of the outbox: one POST per attempt to the provider, in its format
// (chat-messages.ts). A throttle answer sets the next attempt's time; a provider saying
// the channel is gone turns it off with the reason, and the delivery is not retried.
import { Injectable, Logger } from '@nestjs/common';
import { SecretBoxService } from '../../auth/secret-box.service.js';
import { AppConfig } from '../../config/app-config.js';
import { FormChangesService } from '../../forms/changes/form-changes.service.js';
import { FormRepository } from '../../forms/form.repository.js';
import { storedFields } from '../../forms/settings/stored-fields.js';
import type {
  AttemptOutcome,
  ChannelItem,
  DeliveryToSend,
  NotificationChannel,
  PreparedAttempt,
  SubmissionNotice,
} from '../notification-channel.js';
import { SUBMISSION_CREATED } from '../outbox/outbox-entry.js';
import { postWebhook } from '../webhooks/http-sender.js';
import type { ChatChannel } from './chat-channel.entity.js';
import { ChatChannelRepository } from './chat-channel.repository.js';
import { overridden, readAnswer, telegramUrl } from './chat-hosts.js';
import { chatMessage, summarize } from './chat-messages.js';

export const CHAT_TEST = 'chat.test';
const MAX_ERROR = 500;

/** What the secret box holds for a channel. */
export interface ChatSecret {
  url?: string;
  botToken?: string;
  chatId?: string;
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

/** The answer as the delivery log keeps it: status and the first bytes, never the URL. */
function failureText(status: number, body: string): string {
  const snippet = body.replace(/\s+/g, ' ').trim();
  const text = `HTTP ${status}${snippet ? `: ${snippet}` : ''}`;
  return text.length > MAX_ERROR ? `${text.slice(0, MAX_ERROR - 1)}…` : text;
}

@Injectable()
export class ChatDeliveryChannel implements NotificationChannel {
  readonly name = 'chat' as const;
  private readonly logger = new Logger('ChatChannels');

  constructor(
    private readonly channels: ChatChannelRepository,
    private readonly forms: FormRepository,
    private readonly secrets: SecretBoxService,
    private readonly config: AppConfig,
    private readonly changes: FormChangesService,
  ) {}

  async targetsFor(formId: string): Promise<string[]> {
    return this.channels.enabledOf(formId);
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
    const rows = await this.channels.withSecrets(ids);
    const byId = new Map(rows.map((row) => [row.id, row]));
    const forms = await this.forms.forMail([
      ...new Set(items.map(({ delivery }) => delivery.formId)),
    ]);
    return items.map(({ delivery, submission }) => {
      const channel = byId.get(delivery.target);
      if (channel === undefined) return refuse('The chat channel was deleted');
      if (!channel.enabled) return refuse('The chat channel is turned off');
      const form = forms.get(delivery.formId);
      if (form === undefined) return refuse('The form no longer exists');
      const test = delivery.event !== SUBMISSION_CREATED;
      if (!test && submission === null) {
        return refuse('The submission was deleted before it could be sent');
      }
      const summary = summarize({
        formName: form.name,
        fields: storedFields(form.fields),
        data: submission?.data ?? {},
        link: test
          ? null
          : `${this.config.publicUrl}/dashboard/forms/${form.id}/submissions/${submission!.id}`,
        test,
      });
      const secret = JSON.parse(
        this.secrets.decrypt(channel.secretEncrypted),
      ) as ChatSecret;
      const body = JSON.stringify(
        chatMessage(channel.kind, summary, secret.chatId),
      );
      const url =
        channel.kind === 'telegram'
          ? telegramUrl(secret.botToken ?? '', this.config.reach)
          : (secret.url ?? '');
      return (signal) => this.post(channel, url, body, signal);
    });
  }

  private async post(
    channel: ChatChannel,
    url: string,
    body: string,
    signal: AbortSignal,
  ): Promise<AttemptOutcome> {
    const started = performance.now();
    const result = await postWebhook({
      url,
      headers: { 'content-type': 'application/json' },
      body,
      signal,
      allowPrivate: overridden(channel.kind, this.config.reach),
      dnsServers: this.config.dnsServers,
    });
    const durationMs = Math.round(performance.now() - started);
    const status = result.statusCode;
    if (status === null) {
      // A network error names the host at most, never the URL (its path is the secret).
      return {
        ok: false,
        statusCode: null,
        error: result.error ?? 'Request failed',
        durationMs,
      };
    }
    const answer = readAnswer(
      channel.kind,
      status,
      result.body,
      result.retryAfter ?? null,
    );
    if (answer.ok) {
      await this.channels.markDelivered(channel.id, new Date());
      return { ok: true, statusCode: status, error: null, durationMs };
    }
    const error = failureText(status, result.body);
    if (answer.gone !== undefined) {
      await this.disable(channel, answer.gone);
      return { ok: false, statusCode: status, error, durationMs, final: true };
    }
    return {
      ok: false,
      statusCode: status,
      error,
      durationMs,
      ...(answer.retryAfterMs === undefined
        ? {}
        : { retryAfterMs: answer.retryAfterMs }),
    };
  }

  private async disable(channel: ChatChannel, reason: string): Promise<void> {
    const disabled = await this.channels.disable(channel.id, reason);
    this.changes.changed(channel.formId);
    if (disabled) {
      this.logger.warn(
        `Chat channel ${channel.id} of form ${channel.formId}: ${reason}`,
      );
    }
  }
}

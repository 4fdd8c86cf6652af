// The data of a form's Notifications tab (form-notifications.eta): its webhooks, the email
// recipients and the delivery log with each delivery's attempts.
import { Injectable } from '@nestjs/common';
import { ValidationFailedException } from '../../common/errors/errors.js';
import { FormsService } from '../../forms/forms.service.js';
import { DeliveriesService } from '../../notifications/deliveries/deliveries.service.js';
import { RecipientsSectionBuilder } from '../../notifications/email/recipients-section.js';
import { WebhooksService } from '../../notifications/webhooks/webhooks.service.js';
import { ChatChannelsService } from '../../notifications/chat/chat-channels.service.js';
import type { ChatChannelResponseDto } from '../../notifications/chat/dto/chat-channel.dto.js';
import type { FormResponseDto } from '../../forms/dto/form-response.dto.js';
import type { Form } from '../../forms/form.entity.js';
import type {
  DeliveryAttemptDto,
  DeliveryResponseDto,
} from '../../notifications/deliveries/dto/delivery-response.dto.js';
import type { RecipientsSection } from '../../notifications/email/recipients-section.js';
import type { WebhookResponseDto } from '../../notifications/webhooks/dto/webhook-response.dto.js';
import type { PageErrors } from '../page-errors.js';
import type { SectionNotice } from './section-notice.js';

/** Deliveries per page of the log. */
export const DELIVERIES_PAGE_SIZE = 25;

/** The notice after a redirect back to the tab (`?done=`), in its section. */
export const NOTIFICATIONS_NOTICES: Record<string, SectionNotice> = {
  'test-queued': {
    section: 'deliveries',
    text: 'Test event queued: it appears in the delivery log below.',
  },
  enabled: {
    section: 'webhooks',
    text: 'Webhook turned on: new submissions are delivered to it.',
  },
  disabled: {
    section: 'webhooks',
    text: 'Webhook turned off: new submissions are not delivered to it.',
  },
  deleted: { section: 'webhooks', text: 'Webhook deleted.' },
  retried: {
    section: 'deliveries',
    text: 'Delivery queued again: it is sent in a moment.',
  },
  'chat-added': {
    section: 'chat-channels',
    text: 'Chat channel added: new submissions are posted to it.',
  },
  'chat-deleted': { section: 'chat-channels', text: 'Chat channel deleted.' },
  'recipients-saved': {
    section: 'recipients',
    text: 'Recipients saved. A new address is sent a confirmation link and receives submissions once it has confirmed.',
  },
};

export interface NotificationsPageState {
  url?: string;
  description?: string;
  errors?: PageErrors;
  notice?: SectionNotice;
  /** A secret just made: shown once, never stored in a URL. */
  secret?: { webhookId: string; value: string };
  cursor?: string;
  /** The recipients box as typed, when it is shown again with errors. */
  notifyEmails?: string;
}

/** A row of the delivery log. */
export interface DeliveryRow extends DeliveryResponseDto {
  /** The webhook's URL or the recipient's address. */
  targetLabel: string;
  attemptLog: DeliveryAttemptDto[];
  retryable: boolean;
}

/** form-notifications.eta (with the notification-recipients partial). */
export interface NotificationsPageView extends Omit<
  NotificationsPageState,
  'cursor' | 'notifyEmails' | 'notice'
> {
  /** Shown in its section (the layout's own notice stays unset). */
  sectionNotice?: SectionNotice;
  form: FormResponseDto;
  webhooks: WebhookResponseDto[];
  chatChannels: ChatChannelResponseDto[];
  deliveries: DeliveryRow[];
  nextCursor: string | null;
  recipients: RecipientsSection;
  /** The recipients box: as typed, else the stored addresses one a line. */
  notifyEmails: string;
}

@Injectable()
export class NotificationsPageBuilder {
  constructor(
    private readonly forms: FormsService,
    private readonly webhooks: WebhooksService,
    private readonly deliveries: DeliveriesService,
    private readonly recipientsSection: RecipientsSectionBuilder,
    private readonly chat: ChatChannelsService,
  ) {}

  /** A bad cursor shows the first page. */
  async build(
    entity: Form,
    state: NotificationsPageState,
  ): Promise<NotificationsPageView> {
    const form = this.forms.toResponse(entity);
    const [webhooks, chatChannels, log, recipients] = await Promise.all([
      this.webhooks.list(form.id),
      this.chat.list(form.id),
      this.deliveries
        .list(form.id, { limit: DELIVERIES_PAGE_SIZE, cursor: state.cursor })
        .catch((error: unknown) => {
          if (error instanceof ValidationFailedException) {
            return this.deliveries.list(form.id, {
              limit: DELIVERIES_PAGE_SIZE,
            });
          }
          throw error;
        }),
      this.recipientsSection.build(entity.accountId, form.notifyEmails),
    ]);
    const attempts = await this.deliveries.attemptsOf(
      log.data.map((d) => d.id),
    );
    const names = new Map<string, string>([
      ...webhooks.map((w): [string, string] => [w.id, w.url]),
      ...chatChannels.map((c): [string, string] => [
        c.id,
        `${c.kind}: ${c.name}`,
      ]),
    ]);
    return {
      form,
      webhooks,
      chatChannels,
      deliveries: log.data.map((d) =>
        Object.assign(d, {
          targetLabel:
            d.channel === 'webhook' || d.channel === 'chat'
              ? (names.get(d.target) ?? `deleted ${d.channel}`)
              : d.target,
          attemptLog: attempts.get(d.id) ?? [],
          retryable: d.status !== 'pending',
        }),
      ),
      nextCursor: log.nextCursor,
      recipients,
      notifyEmails: state.notifyEmails ?? form.notifyEmails.join('\n'),
      url: state.url,
      description: state.description,
      errors: state.errors,
      sectionNotice: state.notice,
      secret: state.secret,
    };
  }
}

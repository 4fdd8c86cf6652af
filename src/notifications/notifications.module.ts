import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FormsModule } from '../forms/forms.module.js';
import { RateLimitStorageModule } from '../rate-limit/rate-limit-storage.module.js';
import { SPAM_RELEASE } from '../submissions/spam-release.js';
import { SubmissionsModule } from '../submissions/submissions.module.js';
import { DeliveriesController } from './deliveries/deliveries.controller.js';
import { DeliveriesService } from './deliveries/deliveries.service.js';
import { DeliveryAttempt } from './deliveries/delivery-attempt.entity.js';
import { DeliveryCleanup } from './deliveries/delivery-cleanup.js';
import { NotificationLimits } from './notification-limits.js';
import { DeliverySignal } from './deliveries/delivery-signal.js';
import { SubmissionDeliveries } from './deliveries/submission-deliveries.js';
import { Delivery } from './deliveries/delivery.entity.js';
import { DeliveryRepository } from './deliveries/delivery.repository.js';
import {
  NOTIFICATION_CHANNELS,
  type NotificationChannel,
} from './notification-channel.js';
import { EmailChannel } from './email/email.channel.js';
import { EmailNotificationsModule } from './email/email-notifications.module.js';
import { StoredSubmissionNotifications } from './outbox/spam-release-notifier.js';
import { WebhookChannel } from './webhooks/webhook-channel.js';
import { WebhooksController } from './webhooks/webhooks.controller.js';
import { WebhooksService } from './webhooks/webhooks.service.js';
import { NotificationOutbox } from './outbox/notification-outbox.js';
import { NotificationTargets } from './outbox/notification-targets.js';
import { Webhook } from './webhooks/webhook.entity.js';
import { DeliveryPreparer } from './worker/delivery-preparer.js';
import { DeliveryWorker } from './worker/delivery-worker.js';
import { DeliveryBacklog } from './deliveries/delivery-backlog.js';
import { DeliveryTelemetry } from './worker/delivery-telemetry.js';
import { OutboxExpander } from './worker/outbox-expander.js';
import { SubmissionNotices } from './worker/submission-notices.js';
import { FilesModule } from '../files/files.module.js';
import { ChatChannel } from './chat/chat-channel.entity.js';
import { ChatChannelsController } from './chat/chat-channels.controller.js';
import { ChatChannelsService } from './chat/chat-channels.service.js';
import { ChatDeliveryChannel } from './chat/chat-delivery-channel.js';
import { AutoresponseChannel } from './autoresponder/autoresponse-channel.js';
import { AutoresponseUnsubscribe } from './autoresponder/autoresponse-unsubscribe.entity.js';
import { AutoresponseUnsubscribes } from './autoresponder/autoresponse-unsubscribes.js';
import { AutoresponseUnsubscribeRepository } from './autoresponder/autoresponse-unsubscribe.repository.js';
import { ChatChannelRepository } from './chat/chat-channel.repository.js';
import { WebhookRepository } from './webhooks/webhook.repository.js';

/**
 * Notifications of new submissions: the outbox (an event row the submit path's commit
 * queue writes with each batch, which the worker expands into delivery rows; every
 * statement in DeliveryRepository), the worker that sends them, the webhook channel and
 * its management API, and the delivery log with its retention (the "deliveries" sweep).
 *
import { SPAM_RELEASE } from '../submissions/spam-release.js';
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forFeature([
      Webhook,
      Delivery,
      DeliveryAttempt,
      ChatChannel,
      AutoresponseUnsubscribe,
    ]),
    FormsModule,
    SubmissionsModule,
    FilesModule,
    EmailNotificationsModule,
    RateLimitStorageModule,
  ],
  controllers: [
    WebhooksController,
    DeliveriesController,
    ChatChannelsController,
  ],
  providers: [
    DeliverySignal,
    DeliveryRepository,
    NotificationTargets,
    NotificationOutbox,
    OutboxExpander,
    SubmissionNotices,
    DeliveryPreparer,
    DeliveryWorker,
    DeliveryTelemetry,
    DeliveryBacklog,
    DeliveriesService,
    DeliveryCleanup,
    NotificationLimits,
    SubmissionDeliveries,
    WebhookRepository,
    WebhooksService,
    WebhookChannel,
    ChatChannelRepository,
    ChatChannelsService,
    ChatDeliveryChannel,
    AutoresponseChannel,
    AutoresponseUnsubscribeRepository,
    AutoresponseUnsubscribes,
    StoredSubmissionNotifications,
    { provide: SPAM_RELEASE, useExisting: StoredSubmissionNotifications },
    {
      provide: NOTIFICATION_CHANNELS,
      inject: [
        WebhookChannel,
        EmailChannel,
        ChatDeliveryChannel,
        AutoresponseChannel,
      ],
      useFactory: (
        webhook: WebhookChannel,
        email: EmailChannel,
        chat: ChatDeliveryChannel,
        autoresponse: AutoresponseChannel,
      ): NotificationChannel[] => [webhook, email, chat, autoresponse],
    },
  ],
  exports: [
    NOTIFICATION_CHANNELS,
    DeliverySignal,
    DeliveryRepository,
    NotificationTargets,
    NotificationOutbox,
    DeliveriesService,
    WebhooksService,
    ChatChannelsService,
    AutoresponseUnsubscribes,
    DeliveryWorker,
    SPAM_RELEASE,
  ],
})
export class NotificationsModule {}

import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FormsModule } from '../forms/forms.module.js';
import { RateLimitStorageModule } from '../rate-limit/rate-limit-storage.module.js';
import { SPAM_RELEASE } from '../submissions/spam-release.js';
import { SubmissionsModule } from '../submissions/submissions.module.js';
import { DeliveriesController } from './deliveries/deliveries.controller.js';
import { DeliveriesService } from './deliveries/deliveries.service.js';
import { DeliveryAttempt } from './deliveries/delivery-attempt.entity.js';
import { DeliveryCleanupSweep } from './deliveries/delivery-cleanup-sweep.js';
import { NotificationLimiter } from './notification-limiter.js';
import { CommitNotifier } from './deliveries/commit-notifier.js';
import { DeliveryDeletionService } from './deliveries/delivery-deletion.service.js';
import { Delivery } from './deliveries/delivery.entity.js';
import { DeliveryRepository } from './deliveries/delivery.repository.js';
import {
  NOTIFICATION_CHANNELS,
  type NotificationChannel,
} from './notification-channel.js';
import { EmailChannel } from './email/email.channel.js';
import { EmailNotificationsModule } from './email/email-notifications.module.js';
import { SpamReleaseNotifier } from './outbox/spam-release-notifier.js';
import { WebhookChannel } from './webhooks/webhook-channel.js';
import { WebhooksController } from './webhooks/webhooks.controller.js';
import { WebhooksService } from './webhooks/webhooks.service.js';
import { OutboxNotifier } from './outbox/outbox-notifier.js';
import { NotificationTargetCache } from './outbox/notification-target.cache.js';
import { Webhook } from './webhooks/webhook.entity.js';
import { DeliveryAttemptBuilder } from './worker/delivery-attempt-builder.js';
import { DeliveryWorker } from './worker/delivery-worker.js';
import { DeliveryBacklogCounter } from './deliveries/delivery-backlog-counter.js';
import { DeliveryTelemetryRecorder } from './worker/delivery-telemetry-recorder.js';
import { OutboxExpansionService } from './worker/outbox-expansion.service.js';
import { SubmissionNoticeReader } from './worker/submission-notice-reader.js';
import { FilesModule } from '../files/files.module.js';
import { ChatChannel } from './chat/chat-channel.entity.js';
import { ChatChannelsController } from './chat/chat-channels.controller.js';
import { ChatChannelsService } from './chat/chat-channels.service.js';
import { ChatDeliveryChannel } from './chat/chat-delivery-channel.js';
import { AutoresponseChannel } from './autoresponder/autoresponse-channel.js';
import { AutoresponseUnsubscribe } from './autoresponder/autoresponse-unsubscribe.entity.js';
import { AutoresponseUnsubscribeService } from './autoresponder/autoresponse-unsubscribe.service.js';
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
    CommitNotifier,
    DeliveryRepository,
    NotificationTargetCache,
    OutboxNotifier,
    OutboxExpansionService,
    SubmissionNoticeReader,
    DeliveryAttemptBuilder,
    DeliveryWorker,
    DeliveryTelemetryRecorder,
    DeliveryBacklogCounter,
    DeliveriesService,
    DeliveryCleanupSweep,
    NotificationLimiter,
    DeliveryDeletionService,
    WebhookRepository,
    WebhooksService,
    WebhookChannel,
    ChatChannelRepository,
    ChatChannelsService,
    ChatDeliveryChannel,
    AutoresponseChannel,
    AutoresponseUnsubscribeRepository,
    AutoresponseUnsubscribeService,
    SpamReleaseNotifier,
    { provide: SPAM_RELEASE, useExisting: SpamReleaseNotifier },
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
    CommitNotifier,
    DeliveryRepository,
    NotificationTargetCache,
    OutboxNotifier,
    DeliveriesService,
    WebhooksService,
    ChatChannelsService,
    AutoresponseUnsubscribeService,
    DeliveryWorker,
    SPAM_RELEASE,
  ],
})
export class NotificationsModule {}

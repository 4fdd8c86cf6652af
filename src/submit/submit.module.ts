import { Module } from '@nestjs/common';
import { DomainVerificationCoreModule } from '../domain-verification/domain-verification-core.module.js';
import { FormChangesModule } from '../forms/changes/form-changes.module.js';
import { FormRepositoryModule } from '../forms/form-repository.module.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { SpamModule } from '../spam/spam.module.js';
import { CommitQueue } from './commit/commit-queue.js';
import { SubmissionWriterProvider } from './commit/submission-writer-provider.js';
import { FormConfigCache } from './form-config.cache.js';
import { RateLimitStorageModule } from '../rate-limit/rate-limit-storage.module.js';
import { SubmitThrottlerModule } from './rate-limit/submit-throttler.module.js';
import { AltchaChallengeController } from './altcha/altcha-challenge.controller.js';
import { ChallengeRateLimitGuard } from './altcha/challenge-rate-limit.guard.js';
import { FormspreeController } from './formspree/formspree.controller.js';
import { FormspreeThanksController } from './formspree/formspree-thanks.controller.js';
import { SubmitController } from './submit.controller.js';
import { SubmitService } from './submit.service.js';

/**
 * The public hot path, `POST /api/submit/:formId`: its rate limit (the throttler's guard,
 * rate-limit/), CORS (submit.setup.ts), its answers (submit-answer.ts),
 * the cached form configuration and the commit queue, the one writer of submissions;
 * and the ALTCHA challenges of its forms (`GET /api/submit/:formId/challenge`); the same
 * path behind the Formspree-compatible `POST /f/:formId` (formspree/).
 */
@Module({
  imports: [
    FormRepositoryModule,
    DomainVerificationCoreModule,
    FormChangesModule,
    RateLimitStorageModule,
    SubmitThrottlerModule,
    NotificationsModule,
    SpamModule,
  ],
  controllers: [
    SubmitController,
    FormspreeController,
    FormspreeThanksController,
    AltchaChallengeController,
  ],
  providers: [
    SubmitService,
    FormConfigCache,
    CommitQueue,
    SubmissionWriterProvider,
    ChallengeRateLimitGuard,
  ],
  exports: [CommitQueue],
})
export class SubmitModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FormRepositoryModule } from '../forms/form-repository.module.js';
import { SubmissionsModule } from '../submissions/submissions.module.js';
import { AltchaService } from './altcha.service.js';
import { CaptchaChecker } from './captcha-checker.js';
import { CaptchaProviderClient } from './captcha-provider-client.js';
import { DuplicateChecker } from './duplicate-checker.js';
import { SpamRetentionSweep } from './spam-retention-sweep.js';
import { TurnedAwayCounter } from './turned-away.js';
import { UsedTokenStore } from './used-token.store.js';
import { FormSpamStat } from './form-spam-stat.entity.js';
import { FormSpamStatRepository } from './form-spam-stat.repository.js';
import { UsedCaptchaToken } from './used-captcha-token.entity.js';
import { UsedCaptchaTokenRepository } from './used-captcha-token.repository.js';

/**
 * Telling people from bots: CAPTCHA answers (ALTCHA, the third-party providers, used
 * once), the content rules' duplicate check, the count of posts turned away, and the
 * retention of the spam folder. The rules themselves are compiled with each cached form
 * (content-rules.ts).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([UsedCaptchaToken, FormSpamStat]),
    FormRepositoryModule,
    SubmissionsModule,
  ],
  providers: [
    AltchaService,
    CaptchaChecker,
    CaptchaProviderClient,
    DuplicateChecker,
    FormSpamStatRepository,
    SpamRetentionSweep,
    TurnedAwayCounter,
    UsedCaptchaTokenRepository,
    UsedTokenStore,
  ],
  exports: [
    AltchaService,
    CaptchaChecker,
    DuplicateChecker,
    SpamRetentionSweep,
    TurnedAwayCounter,
  ],
})
export class SpamModule {}

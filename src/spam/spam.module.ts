import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FormRepositoryModule } from '../forms/form-repository.module.js';
import { SubmissionsModule } from '../submissions/submissions.module.js';
import { Altcha } from './altcha.js';
import { CaptchaCheck } from './captcha-check.js';
import { CaptchaProviders } from './captcha-providers.js';
import { DuplicateCheck } from './duplicate-check.js';
import { SpamRetention } from './spam-retention.js';
import { TurnedAwayCounter } from './turned-away.js';
import { UsedTokens } from './used-tokens.js';
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
    Altcha,
    CaptchaCheck,
    CaptchaProviders,
    DuplicateCheck,
    FormSpamStatRepository,
    SpamRetention,
    TurnedAwayCounter,
    UsedCaptchaTokenRepository,
    UsedTokens,
  ],
  exports: [
    Altcha,
    CaptchaCheck,
    DuplicateCheck,
    SpamRetention,
    TurnedAwayCounter,
  ],
})
export class SpamModule {}

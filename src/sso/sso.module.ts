import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountsModule } from '../accounts/accounts.module.js';
import { SsoAttempt } from './sso-attempt.entity.js';
import { SsoAttemptRepository } from './sso-attempt.repository.js';
import { SsoDomain } from './sso-domain.entity.js';
import { SsoDomainRepository } from './sso-domain.repository.js';
import { SsoSettings } from './sso-settings.entity.js';
import { SsoSettingsRepository } from './sso-settings.repository.js';
import { SsoSettingsService } from './sso-settings.service.js';
import { SsoSignInService } from './sso-sign-in.service.js';

/** Single sign-on through each account's OpenID provider (docs/security.md). */
@Module({
  imports: [
    TypeOrmModule.forFeature([SsoSettings, SsoDomain, SsoAttempt]),
    AccountsModule,
  ],
  providers: [
    SsoSettingsRepository,
    SsoDomainRepository,
    SsoAttemptRepository,
    SsoSettingsService,
    SsoSignInService,
  ],
  exports: [SsoSettingsService, SsoSignInService],
})
export class SsoModule {}

import { Module } from '@nestjs/common';
import { FormsModule } from '../forms/forms.module.js';
import { RateLimitStorageModule } from '../rate-limit/rate-limit-storage.module.js';
import { DomainVerificationCoreModule } from './domain-verification-core.module.js';
import { DomainsController } from './domains.controller.js';
import { DomainsService } from './domains.service.js';

/**
 * `/api/v1/forms/:id/domains…`. Exports DomainsService (for the dashboard) and, re-exported,
 * the submit-time check.
 */
@Module({
  imports: [DomainVerificationCoreModule, FormsModule, RateLimitStorageModule],
  controllers: [DomainsController],
  providers: [DomainsService],
  exports: [DomainsService, DomainVerificationCoreModule],
})
export class DomainVerificationModule {}

import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FormChangesModule } from '../forms/changes/form-changes.module.js';
import { FORM_WARNINGS } from '../forms/answers/form-warnings.js';
import { DomainVerificationService } from './domain-verification.service.js';
import { FormDomain } from './form-domain.entity.js';
import { FormDomainRepository } from './form-domain.repository.js';

/**
 * The submit-time check and the settings warning, without the management API: what the
 * submit path and the forms feature need, and all the notification worker loads. Global,
 * because FormsService reads the warning through FORM_WARNINGS without importing this
 * feature. It is a single instance app-wide, so its cache is shared.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([FormDomain]), FormChangesModule],
  providers: [
    DomainVerificationService,
    FormDomainRepository,
    { provide: FORM_WARNINGS, useExisting: DomainVerificationService },
  ],
  exports: [DomainVerificationService, FormDomainRepository, FORM_WARNINGS],
})
export class DomainVerificationCoreModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FormChangesModule } from '../forms/form-changes.module.js';
import { DomainVerificationService } from './domain-verification.service.js';
import { FormDomain } from './form-domain.entity.js';

/**
 * The submit-time check and the settings warning, without the management API. The forms
 * and submissions modules import this one: it does not depend on FormsModule, so no import
 * cycle arises. It is a single instance app-wide, so its cache is shared.
 */
@Module({
  imports: [TypeOrmModule.forFeature([FormDomain]), FormChangesModule],
  providers: [DomainVerificationService],
  exports: [DomainVerificationService],
})
export class DomainVerificationCoreModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FormsModule } from '../forms/forms.module.js';
import { DomainVerificationCoreModule } from './domain-verification-core.module.js';
import { DomainsController } from './domains.controller.js';
import { DomainsService } from './domains.service.js';
import { FormDomain } from './form-domain.entity.js';

/** `/api/v1/forms/:id/domains…` plus, re-exported, the submit-time check. */
@Module({
  imports: [
    TypeOrmModule.forFeature([FormDomain]),
    DomainVerificationCoreModule,
    FormsModule,
  ],
  controllers: [DomainsController],
  providers: [DomainsService],
  exports: [DomainVerificationCoreModule],
})
export class DomainVerificationModule {}

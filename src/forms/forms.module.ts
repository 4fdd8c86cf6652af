import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainVerificationCoreModule } from '../domain-verification/domain-verification-core.module.js';
import { FormChangesModule } from './form-changes.module.js';
import { Form } from './form.entity.js';
import { FormsController } from './forms.controller.js';
import { FormsService } from './forms.service.js';

@Module({
  imports: [
    TypeOrmModule.forFeature([Form]),
    DomainVerificationCoreModule,
    FormChangesModule,
  ],
  controllers: [FormsController],
  providers: [FormsService],
  exports: [FormsService, FormChangesModule],
})
export class FormsModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainVerificationCoreModule } from '../domain-verification/domain-verification-core.module.js';
import { FormChangesModule } from './form-changes.module.js';
import { Form } from './form.entity.js';
import { FormsController } from './forms.controller.js';
import { FormsService } from './forms.service.js';
import { EmailNotificationsModule } from '../notifications/email/email-notifications.module.js';

@Module({
  imports: [
    TypeOrmModule.forFeature([Form]),
    DomainVerificationCoreModule,
    FormChangesModule,
    EmailNotificationsModule,
  ],
  controllers: [FormsController],
  providers: [FormsService],
  exports: [FormsService, FormChangesModule],
})
export class FormsModule {}

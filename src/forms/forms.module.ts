import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FormChangesModule } from './form-changes.module.js';
import { Form } from './form.entity.js';
import { FormsController } from './forms.controller.js';
import { FormsService } from './forms.service.js';

/**
 * Forms and their keys. What a form's answer shows from other features (FORM_WARNINGS,
 * NOTIFY_EMAIL_CONFIRMATIONS) comes from the global modules of those features, which
 * depend on this one: forms imports none of them.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Form]), FormChangesModule],
  controllers: [FormsController],
  providers: [FormsService],
  exports: [FormsService, FormChangesModule],
})
export class FormsModule {}

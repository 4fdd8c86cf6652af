import { Module } from '@nestjs/common';
import { FormChangesService } from './form-changes.service.js';

/**
 * The bus that announces form changes to every cache of form configuration. Its own
 * module, so the caches (submit, domain verification, email recipients) take the bus
 * without the forms API.
 */
@Module({
  providers: [FormChangesService],
  exports: [FormChangesService],
})
export class FormChangesModule {}

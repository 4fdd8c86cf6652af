import { Module } from '@nestjs/common';
import { FormChangesService } from './form-changes.service.js';

/**
 * The bus that announces form changes to every cache of form configuration. Its own
 * module, with no dependency on the forms or domains features, so both can import it.
 */
@Module({
  providers: [FormChangesService],
  exports: [FormChangesService],
})
export class FormChangesModule {}

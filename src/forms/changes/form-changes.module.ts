import { Global, Module } from '@nestjs/common';
import { MEMBERSHIP_CHANGES } from '../../accounts/membership-changes.js';
import { FormChangesService } from './form-changes.service.js';

/**
 * The bus that announces form changes to every cache of form configuration. Its own
 * module, so the caches (submit, domain verification, email recipients) take the bus
 * without the forms API. Global because it also carries membership changes for accounts/
 * (MEMBERSHIP_CHANGES), which sits below forms and cannot import it.
 */
@Global()
@Module({
  providers: [
    FormChangesService,
    { provide: MEMBERSHIP_CHANGES, useExisting: FormChangesService },
  ],
  exports: [FormChangesService, MEMBERSHIP_CHANGES],
})
export class FormChangesModule {}

import { Module } from '@nestjs/common';
import { FORM_KEY_PRINCIPALS } from '../auth/key-principals.js';
import { FormChangesModule } from './changes/form-changes.module.js';
import { FormRepositoryModule } from './form-repository.module.js';
import { FormKeyResolver } from './keys/form-key-resolver.js';
import { FormsController } from './forms.controller.js';
import { FormsService } from './forms.service.js';

/**
 * Forms and their keys; FORM_KEY_PRINCIPALS tells the API-key guard whose a form key is.
 * What a form's answer shows from other features (FORM_WARNINGS,
 * NOTIFY_EMAIL_CONFIRMATIONS) comes from the global modules of those features, which
 * depend on this one: forms imports none of them.
 */
@Module({
  imports: [FormRepositoryModule, FormChangesModule],
  controllers: [FormsController],
  providers: [
    FormsService,
    { provide: FORM_KEY_PRINCIPALS, useClass: FormKeyResolver },
  ],
  exports: [
    FormsService,
    FormRepositoryModule,
    FormChangesModule,
    FORM_KEY_PRINCIPALS,
  ],
})
export class FormsModule {}

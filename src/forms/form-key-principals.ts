import { Injectable } from '@nestjs/common';
import type { KeyPrincipals } from '../auth/key-principals.js';
import type { ApiPrincipal } from '../auth/principal.js';
import { FormRepository } from './form.repository.js';

/** FORM_KEY_PRINCIPALS: a form key reaches its own form, found by the key's hash. */
@Injectable()
export class FormKeyPrincipals implements KeyPrincipals {
  constructor(private readonly forms: FormRepository) {}

  async principalFor(keyHash: string): Promise<ApiPrincipal | undefined> {
    const form = await this.forms.findByKeyHash(keyHash);
    return form
      ? { kind: 'form', accountId: form.accountId, formId: form.id }
      : undefined;
  }
}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { KeyPrincipals } from '../auth/key-principals.js';
import type { ApiPrincipal } from '../auth/principal.js';
import { Form } from './form.entity.js';

/** FORM_KEY_PRINCIPALS: a form key reaches its own form, found by the key's hash. */
@Injectable()
export class FormKeyPrincipals implements KeyPrincipals {
  constructor(
    @InjectRepository(Form) private readonly forms: Repository<Form>,
  ) {}

  async principalFor(keyHash: string): Promise<ApiPrincipal | undefined> {
    const form = await this.forms.findOne({
      where: { apiKeyHash: keyHash },
      select: { id: true, accountId: true },
    });
    return form
      ? { kind: 'form', accountId: form.accountId, formId: form.id }
      : undefined;
  }
}

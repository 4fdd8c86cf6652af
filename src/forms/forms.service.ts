import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { generateApiKey, generateFormId } from '../auth/api-keys.js';
import type { ApiPrincipal } from '../auth/principal.js';
import { SecretBox } from '../auth/secret-box.js';
import { FieldDefinition, Form } from './form.entity.js';

export const FORM_NOT_FOUND = 'Form not found';

export interface FormInput {
  name: string;
  fields?: FieldDefinition[];
  domainVerification?: boolean;
}

export interface CreatedForm {
  form: Form;
  /** The full key, returned once at creation (the dashboard can decrypt it later). */
  apiKey: string;
}

@Injectable()
export class FormsService {
  constructor(
    @InjectRepository(Form) private readonly forms: Repository<Form>,
    private readonly secretBox: SecretBox,
  ) {}

  async create(accountId: string, input: FormInput): Promise<CreatedForm> {
    const key = generateApiKey('form');
    const form = this.forms.create({
      id: generateFormId(),
      accountId,
      name: input.name,
      fields: input.fields ?? [],
      domainVerification: input.domainVerification ?? false,
      apiKeyHash: key.hash,
      apiKeyEncrypted: this.secretBox.encrypt(key.key),
      apiKeyPrefix: key.prefix,
    });
    await this.forms.insert(form);
    return { form, apiKey: key.key };
  }

  /**
   * The form `id` when the principal may reach it, else 404 "Form not found"
   * (also for forms that exist in another account: no existence oracle).
   * A form key reaches only its own form; an account key every form of its account.
   */
  async findAccessible(principal: ApiPrincipal, id: string): Promise<Form> {
    if (principal.kind === 'form' && principal.formId !== id) {
      throw new NotFoundException(FORM_NOT_FOUND);
    }
    const form = await this.forms.findOneBy({
      id,
      accountId: principal.accountId,
    });
    if (!form) throw new NotFoundException(FORM_NOT_FOUND);
    return form;
  }

  /** For the public submit route: no principal, just the form. */
  findById(id: string): Promise<Form | null> {
    return this.forms.findOneBy({ id });
  }
}

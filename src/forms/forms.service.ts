import {
  ConflictException,
  ForbiddenException,
  Inject,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import {
  keyExpiryOf,
  outlivedKeyMessage,
  outlives,
} from '../accounts/key-expiry.js';
import { SYSTEM_ACTOR, type AuditActor } from '../audit/audit-actor.js';
import { AuditLogService } from '../audit/audit-log.service.js';
import { generateApiKey, generateFormId } from '../auth/api-keys.js';
import { confinedToForm, type ApiPrincipal } from '../auth/principal.js';
import { SecretBoxService } from '../auth/secret-box.service.js';
import { AppConfig } from '../config/app-config.js';
import type { FormResponseDto } from './dto/form-response.dto.js';
import { previousKeyColumns } from './keys/previous-key.js';
import { FormChangesService } from './changes/form-changes.service.js';
import { checkedFields } from './settings/stored-fields.js';
import type { CreatedFormResponseDto } from './dto/form-response.dto.js';
import type { Form } from './form.entity.js';
import { FormRepository, type FormChanges } from './form.repository.js';
import { formChangeEvent, formCreatedDetails } from './changes/form-audit.js';
import { formResponse } from './answers/form-response.js';
import { REPLACED_ON_PATCH, type FormInput } from './input/form-input.js';
import { FORM_WARNINGS, type FormWarnings } from './answers/form-warnings.js';
import {
  FORM_KEY_CREATED_WARNING,
  tooManyFormsMessage,
  type CreatedForm,
} from './answers/form-created.js';
import { captchaColumns } from './input/captcha-input.js';
import {
  DEFAULT_SPAM_FILTER,
  mergeSpamFilter,
  storedCaptcha,
  storedSpamFilter,
} from './settings/spam-settings.js';
import { autoresponseOfWrite } from './input/autoresponse-write.js';
import {
  NOTIFY_EMAIL_CONFIRMATIONS,
  storedAddresses,
  type NotifyEmailConfirmations,
} from './settings/notify-emails.js';

export const FORM_NOT_FOUND = 'Form not found';

/** Who makes a change, as the audit log records it. */
type Actor = ApiPrincipal | AuditActor;

@Injectable()
export class FormsService {
  constructor(
    private readonly forms: FormRepository,
    private readonly secretBox: SecretBoxService,
    @Inject(FORM_WARNINGS) private readonly warnings: FormWarnings,
    private readonly changes: FormChangesService,
    private readonly config: AppConfig,
    @Inject(NOTIFY_EMAIL_CONFIRMATIONS)
    private readonly recipients: NotifyEmailConfirmations,
    private readonly auditLog: AuditLogService,
  ) {}

  /** toResponse plus the warning a single-form answer carries when the form needs attention. */
  private async toDetailedResponse(form: Form): Promise<FormResponseDto> {
    const addresses = storedAddresses(form.notifyEmails);
    const [confirmed, sendErrors] = await Promise.all([
      this.recipients.confirmedAmong(form.accountId, addresses),
      this.recipients.sendErrorsAmong(form.accountId, addresses),
    ]);
    const response = this.toResponse(form, confirmed, sendErrors);
    const warning = await this.warnings.warningFor(form);
    if (warning) response.warning = warning;
    return response;
  }

  /** What the API shows of a form (formResponse); `confirmed`: its confirmed addresses. */
  toResponse(
    form: Form,
    confirmed: ReadonlySet<string> = new Set(),
    sendErrors: ReadonlyMap<string, string> = new Map(),
  ): FormResponseDto {
    return formResponse(form, confirmed, sendErrors);
  }

  /** `keyExpiresAt`: when the new form's key stops working (that of an expiring creator). */
  async create(
    accountId: string,
    input: FormInput,
    by: Actor = SYSTEM_ACTOR,
    keyExpiresAt: Date | null = null,
  ): Promise<CreatedForm> {
    // A form key can create forms, so a leaked key must not be able to create without end.
    // Counted before the insert: requests racing each other may pass it together.
    const max = this.config.maxFormsPerAccount;
    if ((await this.forms.countInAccount(accountId)) >= max) {
      throw new ConflictException(tooManyFormsMessage(max));
    }
    const key = generateApiKey('form');
    const form = this.forms.create({
      id: generateFormId(),
      accountId,
      name: input.name,
      fields: checkedFields(input.fields ?? [], this.config),
      domainVerification: input.domainVerification ?? false,
      redirectUrl: input.redirectUrl ?? null,
      successMessage: input.successMessage ?? null,
      retentionDays: input.retentionDays ?? null,
      notifyEmails: input.notifyEmails ?? [],
      spamFilter: input.spamFilter
        ? mergeSpamFilter(DEFAULT_SPAM_FILTER, input.spamFilter)
        : null,
      ...captchaColumns(input.captcha ?? null, undefined, this.secretBox),
      apiKeyHash: key.hash,
      apiKeyEncrypted: this.secretBox.encrypt(key.key),
      apiKeyPrefix: key.prefix,
      apiKeyExpiresAt: keyExpiresAt,
    });
    Object.assign(
      form,
      await this.autoresponseOf(accountId, input, null, form),
    );
    await this.auditLog.recordChange(
      {
        accountId,
        actor: by,
        action: 'form.created',
        target: { type: 'form', id: form.id },
        details: formCreatedDetails(form),
      },
      async (manager) => (await this.forms.in(manager).insert(form), true),
    );
    this.changes.created(form.id);
    await this.recipients.requestConfirmations(accountId, form.notifyEmails!);
    return { form, apiKey: key.key };
  }

  /**
   * Creates a form in the principal's account. A form key may do this too: the new form
   * belongs to the same account and gets its own key (returned here, once), which expires
   * when the creating key does, if it does.
   */
  async createForPrincipal(
    principal: ApiPrincipal,
    input: FormInput,
  ): Promise<CreatedFormResponseDto> {
    const { form, apiKey } = await this.create(
      principal.accountId,
      input,
      principal,
      keyExpiryOf(principal) ?? null,
    );
    const response = await this.toDetailedResponse(form);
    if (principal.kind === 'form') {
      // The key that created it reaches only its own form: say so before the new key is lost.
      response.warning = [FORM_KEY_CREATED_WARNING, response.warning]
        .filter(Boolean)
        .join(' ');
    }
    return Object.assign(response, { apiKey });
  }

  /** An account key or the owner sees every form of the account, a form key just its own form. */
  async list(principal: ApiPrincipal): Promise<FormResponseDto[]> {
    const onlyForm = confinedToForm(principal);
    const forms = await this.forms.listInAccount(principal.accountId, onlyForm);
    const addresses = forms.flatMap((form) =>
      storedAddresses(form.notifyEmails),
    );
    const [confirmed, sendErrors] = await Promise.all([
      this.recipients.confirmedAmong(principal.accountId, addresses),
      this.recipients.sendErrorsAmong(principal.accountId, addresses),
    ]);
    return forms.map((form) => this.toResponse(form, confirmed, sendErrors));
  }

  /**
   * The form `id` when the principal may reach it, else 404 "Form not found"
   * (also for forms that exist in another account: no existence oracle).
   * A form key reaches only its own form; an account key or the owner every form of the account.
   */
  async findAccessible(principal: ApiPrincipal, id: string): Promise<Form> {
    const onlyForm = confinedToForm(principal);
    if (onlyForm !== undefined && onlyForm !== id) {
      throw new NotFoundException(FORM_NOT_FOUND);
    }
    const form = await this.forms.findInAccount(id, principal.accountId);
    if (!form) throw new NotFoundException(FORM_NOT_FOUND);
    return form;
  }

  /** The response for a form already resolved for its principal (see AccessibleForm). */
  describe(form: Form): Promise<FormResponseDto> {
    return this.toDetailedResponse(form);
  }

  /** PUT: every writable property takes the new value (or its default). */
  replaceForm(
    form: Form,
    input: FormInput,
    by: Actor,
  ): Promise<FormResponseDto> {
    return this.update(form, by, {
      name: input.name,
      fields: input.fields ?? [],
      domainVerification: input.domainVerification ?? false,
      redirectUrl: input.redirectUrl ?? null,
      successMessage: input.successMessage ?? null,
      retentionDays: input.retentionDays ?? null,
      notifyEmails: input.notifyEmails ?? [],
      spamFilter: input.spamFilter ?? {},
      captcha: input.captcha ?? null,
      autoresponse: input.autoresponse ?? null,
    });
  }

  /** PATCH: only the properties present change. */
  patch(
    form: Form,
    input: Partial<FormInput>,
    by: Actor = SYSTEM_ACTOR,
  ): Promise<FormResponseDto> {
    const changes: Partial<FormInput> = {};
    for (const key of REPLACED_ON_PATCH) {
      if (input[key] !== undefined) {
        Object.assign(changes, { [key]: input[key] });
      }
    }
    if (input.spamFilter !== undefined) {
      changes.spamFilter = mergeSpamFilter(
        storedSpamFilter(form.spamFilter),
        input.spamFilter,
      );
    }
    return this.update(form, by, changes);
  }

  /** Ends the grace of the form's CAPTCHA (docs/spam.md); nothing else of it changes. */
  async endCaptchaGrace(form: Form, by: Actor): Promise<void> {
    const captcha = storedCaptcha(form.captcha);
    if (!captcha?.graceUntil) return;
    await this.update(form, by, {
      captcha: {
        provider: captcha.provider,
        ...(captcha.siteKey === null ? {} : { siteKey: captcha.siteKey }),
        ...(captcha.minScore === null ? {} : { minScore: captcha.minScore }),
        graceUntil: null,
      },
    });
  }

  /** Deletes the form; its submissions and domains go with it (ON DELETE CASCADE), and so does its key. */
  async remove(form: Form, by: Actor): Promise<void> {
    const deleted = await this.auditLog.recordChange(
      {
        accountId: form.accountId,
        actor: by,
        action: 'form.deleted',
        target: { type: 'form', id: form.id },
        details: { name: form.name },
      },
      (manager) => this.forms.in(manager).delete(form.id, form.accountId),
    );
    this.changes.changed(form.id);
    if (!deleted) throw new NotFoundException(FORM_NOT_FOUND);
  }

  /**
   * Replaces the form's key. With no grace the old key stops matching at once (lookups
   * are by hash); with `graceSeconds` it keeps matching that long as the form's previous
   * key (a key still in grace from an earlier rotation is dropped). `limit`: the expiry of
   * the key asking, if it expires — the new key expires then too, and a current key that
   * outlives it is not its to replace (403).
   */
  async regenerateKey(
    form: Form,
    by: Actor,
    graceSeconds = 0,
    limit?: Date,
  ): Promise<string> {
    const key = generateApiKey('form');
    // Two rotations at once: each swaps only the key it read, so neither keeps a key
    // that the other has already replaced.
    for (let attempt = 0; attempt < 5; attempt++) {
      const current = await this.forms.currentKey(form.id, form.accountId);
      if (!current) throw new NotFoundException(FORM_NOT_FOUND);
      if (outlives(current.apiKeyExpiresAt, limit)) {
        throw new ForbiddenException(outlivedKeyMessage(limit!));
      }
      const now = new Date();
      const replaced = await this.auditLog.recordChange(
        {
          accountId: form.accountId,
          actor: by,
          action:
            graceSeconds > 0 ? 'form_key.rotated' : 'form_key.regenerated',
          target: { type: 'form', id: form.id },
          details: {
            key: 'changed',
            prefix: { before: current.apiKeyPrefix, after: key.prefix },
            ...(graceSeconds > 0 ? { graceSeconds } : {}),
          },
        },
        (manager) =>
          this.forms
            .in(manager)
            .replaceKey(form.id, form.accountId, current.apiKeyHash, {
              apiKeyHash: key.hash,
              apiKeyEncrypted: this.secretBox.encrypt(key.key),
              apiKeyPrefix: key.prefix,
              apiKeyLastUsedAt: null,
              apiKeyExpiresAt: limit ?? null,
              ...previousKeyColumns(current, graceSeconds, now),
              updatedAt: now,
            }),
      );
      if (replaced) return key.key;
    }
    throw new ConflictException(
      'The key was being rotated by another request at the same time: try again',
    );
  }

  /** The form's current key in clear, for its owner's dashboard page. */
  async revealApiKey(accountId: string, formId: string): Promise<string> {
    const sealed = await this.forms.encryptedKey(formId, accountId);
    if (sealed === null) throw new NotFoundException(FORM_NOT_FOUND);
    return this.secretBox.decrypt(sealed);
  }

  /** The ids of every form of an account, oldest first (erasure walks them all). */
  idsOfAccount(accountId: string): Promise<string[]> {
    return this.forms.idsInAccount(accountId);
  }

  /** The autoresponse column of a write (autoresponse-write.ts). */
  private autoresponseOf(
    accountId: string,
    input: Pick<FormInput, 'autoresponse'>,
    form: Form | null,
    values: FormChanges | Form,
  ): ReturnType<typeof autoresponseOfWrite> {
    return autoresponseOfWrite(input, form, values, (addresses) =>
      this.recipients.confirmedAmong(accountId, addresses),
    );
  }

  private async update(
    form: Form,
    by: Actor,
    changes: Partial<FormInput>,
  ): Promise<FormResponseDto> {
    const { spamFilter, captcha, autoresponse, ...rest } = changes;
    const values: FormChanges = {
      ...rest,
      ...(captcha !== undefined
        ? captchaColumns(captcha, form.captcha, this.secretBox)
        : {}),
      ...(changes.fields
        ? { fields: checkedFields(changes.fields, this.config) }
        : {}),
      // A replacement (PUT) gives only what was sent: the rest takes its default.
      ...(spamFilter
        ? { spamFilter: mergeSpamFilter(DEFAULT_SPAM_FILTER, spamFilter) }
        : {}),
      updatedAt: new Date(),
    };
    Object.assign(
      values,
      await this.autoresponseOf(form.accountId, { autoresponse }, form, values),
    );
    const event = formChangeEvent(form, values);
    // false: deleted between the read and the write.
    const updated = await this.auditLog.recordChange(
      {
        accountId: form.accountId,
        actor: by,
        action: event.action,
        target: { type: 'form', id: form.id },
        details: event.details,
      },
      (manager) =>
        this.forms.in(manager).update(form.id, form.accountId, values),
    );
    if (!updated) throw new NotFoundException(FORM_NOT_FOUND);
    this.changes.changed(form.id);
    if (changes.notifyEmails) {
      await this.recipients.requestConfirmations(
        form.accountId,
        changes.notifyEmails,
      );
    }
    return this.toDetailedResponse(Object.assign(form, values));
  }
}

// The one owner of the form table: every read and write of a form goes through here — the
// forms API, the key guard, the submit path's configuration cache, the notification
// channels and the worker. Each caller asks for what it needs by name, and gets only those
// columns; a new column or an index the table needs is decided in this file. (The submit
// path's commit queue adds to `honeypotHits` in its batch, with its own prepared statement.)
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import {
  In,
  MoreThan,
  Not,
  IsNull,
  Repository,
  type EntityManager,
} from 'typeorm';
import { recordKeyUse } from '../auth/key-use.js';
import type { FieldDefinition } from './form.entity.js';
import { Form } from './form.entity.js';

/** What the submit route caches of a form. */
export type SubmitFormRow = Pick<
  Form,
  | 'id'
  | 'accountId'
  | 'fields'
  | 'domainVerification'
  | 'redirectUrl'
  | 'successMessage'
  | 'spamFilter'
  | 'captcha'
  | 'captchaSecretEncrypted'
>;

/** Who a form belongs to and what it is called (notifications describe it so). */
export type FormSummary = Pick<Form, 'id' | 'name' | 'accountId'>;

/** What a submission's email needs of its form. */
export type MailForm = Pick<
  Form,
  'id' | 'accountId' | 'name' | 'fields' | 'notifyEmails'
>;

/** What the autoresponder needs of a form. */
export type AutoresponseForm = Pick<
  Form,
  'id' | 'accountId' | 'autoresponse' | 'captcha'
>;

/** A form's notification addresses as stored. */
export type FormAddresses = Pick<Form, 'id' | 'accountId' | 'notifyEmails'>;

/** The columns a new form is created with. */
export type NewForm = Pick<
  Form,
  | 'id'
  | 'accountId'
  | 'name'
  | 'fields'
  | 'domainVerification'
  | 'redirectUrl'
  | 'successMessage'
  | 'retentionDays'
  | 'notifyEmails'
  | 'spamFilter'
  | 'captcha'
  | 'apiKeyHash'
  | 'apiKeyEncrypted'
  | 'apiKeyPrefix'
> &
  Partial<Pick<Form, 'captchaSecretEncrypted' | 'apiKeyExpiresAt'>>;

/** The columns a change of a form may write. */
export type FormChanges = Partial<
  Pick<
    Form,
    | 'name'
    | 'fields'
    | 'domainVerification'
    | 'redirectUrl'
    | 'successMessage'
    | 'retentionDays'
    | 'notifyEmails'
    | 'spamFilter'
    | 'captcha'
    | 'captchaSecretEncrypted'
    | 'autoresponse'
    | 'apiKeyHash'
    | 'apiKeyEncrypted'
    | 'apiKeyPrefix'
    | 'updatedAt'
  >
> & { fields?: FieldDefinition[] };

/** The columns a key rotation writes. */
export type KeyChanges = Pick<
  Form,
  | 'apiKeyHash'
  | 'apiKeyEncrypted'
  | 'apiKeyPrefix'
  | 'apiKeyLastUsedAt'
  | 'apiKeyExpiresAt'
  | 'previousApiKeyHash'
  | 'previousApiKeyPrefix'
  | 'previousApiKeyExpiresAt'
  | 'previousApiKeyLastUsedAt'
  | 'updatedAt'
>;

/** A form's current key, as a rotation reads it. */
export type CurrentKey = Pick<
  Form,
  'id' | 'apiKeyHash' | 'apiKeyPrefix' | 'apiKeyLastUsedAt' | 'apiKeyExpiresAt'
>;

@Injectable()
export class FormRepository {
  constructor(
    @InjectRepository(Form) private readonly forms: Repository<Form>,
  ) {}

  /** This repository working in `manager`'s transaction (a change and its audit event). */
  in(manager: EntityManager): FormRepository {
    return new FormRepository(manager.getRepository(Form));
  }

  /** Builds a form entity (timestamps are stamped on insert). */
  create(values: NewForm): Form {
    return this.forms.create(values);
  }

  async insert(form: Form): Promise<void> {
    await this.forms.insert(form);
  }

  countInAccount(accountId: string): Promise<number> {
    return this.forms.countBy({ accountId });
  }

  /** The forms of an account (or just `onlyId` of it), newest first. */
  listInAccount(accountId: string, onlyId?: string): Promise<Form[]> {
    return this.forms.find({
      where: { accountId, ...(onlyId !== undefined ? { id: onlyId } : {}) },
      order: { createdAt: 'DESC', id: 'ASC' },
    });
  }

  /** The ids of every form of an account, oldest first. */
  async idsInAccount(accountId: string): Promise<string[]> {
    const forms = await this.forms.find({
      where: { accountId },
      select: { id: true },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    return forms.map((form) => form.id);
  }

  /** The form, when it belongs to the account. */
  findInAccount(id: string, accountId: string): Promise<Form | null> {
    return this.forms.findOneBy({ id, accountId });
  }

  /** Writes the changes when the form still belongs to the account; false when it is gone. */
  async update(
    id: string,
    accountId: string,
    changes: FormChanges,
  ): Promise<boolean> {
    const result = await this.forms.update({ id, accountId }, changes);
    return Boolean(result.affected);
  }

  /** Deletes the form (its rows go with it by cascade); false when it was already gone. */
  async delete(id: string, accountId: string): Promise<boolean> {
    const result = await this.forms.delete({ id, accountId });
    return Boolean(result.affected);
  }

  /** The form whose key has this hash (the key guard's lookup). */
  findByKeyHash(
    apiKeyHash: string,
  ): Promise<Pick<
    Form,
    'id' | 'accountId' | 'apiKeyPrefix' | 'apiKeyLastUsedAt' | 'apiKeyExpiresAt'
  > | null> {
    return this.forms.findOne({
      where: { apiKeyHash },
      select: {
        id: true,
        accountId: true,
        apiKeyPrefix: true,
        apiKeyLastUsedAt: true,
        apiKeyExpiresAt: true,
      },
    });
  }

  /** The form whose previous key (still in grace, or not) has this hash. */
  findByPreviousKeyHash(
    previousApiKeyHash: string,
  ): Promise<Pick<
    Form,
    | 'id'
    | 'accountId'
    | 'previousApiKeyPrefix'
    | 'previousApiKeyExpiresAt'
    | 'previousApiKeyLastUsedAt'
  > | null> {
    return this.forms.findOne({
      where: { previousApiKeyHash },
      select: {
        id: true,
        accountId: true,
        previousApiKeyPrefix: true,
        previousApiKeyExpiresAt: true,
        previousApiKeyLastUsedAt: true,
      },
    });
  }

  /** Marks the form's current or previous key used at `now` (at most once a minute). */
  markKeyUsed(
    id: string,
    which: 'apiKeyLastUsedAt' | 'previousApiKeyLastUsedAt',
    now: Date,
  ): Promise<boolean> {
    return recordKeyUse(
      this.forms.createQueryBuilder().update(),
      id,
      which,
      now,
    );
  }

  /** The form's current key, when the form belongs to the account. */
  currentKey(id: string, accountId: string): Promise<CurrentKey | null> {
    return this.forms.findOne({
      where: { id, accountId },
      select: {
        id: true,
        apiKeyHash: true,
        apiKeyPrefix: true,
        apiKeyLastUsedAt: true,
        apiKeyExpiresAt: true,
      },
    });
  }

  /**
   * Writes a rotation, only while the form's key is still `expectedHash` (so two
   * rotations at once never keep a key the other replaced); false otherwise.
   */
  async replaceKey(
    id: string,
    accountId: string,
    expectedHash: string,
    changes: KeyChanges,
  ): Promise<boolean> {
    const result = await this.forms.update(
      { id, accountId, apiKeyHash: expectedHash },
      changes,
    );
    return Boolean(result.affected);
  }

  /** The encrypted copy of the form's key, when the form belongs to the account. */
  async encryptedKey(id: string, accountId: string): Promise<string | null> {
    const form = await this.forms.findOne({
      where: { id, accountId },
      select: { id: true, apiKeyEncrypted: true },
    });
    return form?.apiKeyEncrypted ?? null;
  }

  /** What the submit route keeps of a form in its cache. */
  findForSubmit(id: string): Promise<SubmitFormRow | null> {
    return this.forms.findOne({
      select: {
        id: true,
        accountId: true,
        fields: true,
        domainVerification: true,
        redirectUrl: true,
        successMessage: true,
        spamFilter: true,
        captcha: true,
        captchaSecretEncrypted: true,
      },
      where: { id },
    });
  }

  /** Up to `limit` form ids after `after`, in id order (sweeps walk every form so). */
  async idsAfter(after: string, limit: number): Promise<string[]> {
    const rows = await this.forms.find({
      select: { id: true },
      where: { id: MoreThan(after) },
      order: { id: 'ASC' },
      take: limit,
    });
    return rows.map((row) => row.id);
  }

  /**
   * Up to `limit` forms after `after` in id order that keep their submissions a limited
   * time, with that time (the retention sweep walks them so).
   */
  retainingAfter(
    after: string,
    limit: number,
  ): Promise<Array<Pick<Form, 'id' | 'retentionDays'>>> {
    return this.forms.find({
      select: { id: true, retentionDays: true },
      where: { id: MoreThan(after), retentionDays: Not(IsNull()) },
      order: { id: 'ASC' },
      take: limit,
    });
  }

  /** Name and account of each form that still exists, by id. */
  async summaries(ids: readonly string[]): Promise<Map<string, FormSummary>> {
    if (ids.length === 0) return new Map();
    const rows = await this.forms.find({
      select: { id: true, name: true, accountId: true },
      where: { id: In([...new Set(ids)]) },
    });
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** What the email channel needs of each form that still exists, by id. */
  async forMail(ids: readonly string[]): Promise<Map<string, MailForm>> {
    if (ids.length === 0) return new Map();
    const rows = await this.forms.find({
      where: { id: In([...new Set(ids)]) },
      select: {
        id: true,
        accountId: true,
        name: true,
        fields: true,
        notifyEmails: true,
      },
    });
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** What the autoresponder needs of each form that still exists, by id. */
  async forAutoresponse(
    ids: readonly string[],
  ): Promise<Map<string, AutoresponseForm>> {
    if (ids.length === 0) return new Map();
    const rows = await this.forms.find({
      where: { id: In([...new Set(ids)]) },
      select: { id: true, accountId: true, autoresponse: true, captcha: true },
    });
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** A form's notification addresses, or null when it does not exist. */
  addresses(id: string): Promise<FormAddresses | null> {
    return this.forms.findOne({
      where: { id },
      select: { id: true, accountId: true, notifyEmails: true },
    });
  }

  /** The notification addresses of every form of an account. */
  addressesInAccount(accountId: string): Promise<FormAddresses[]> {
    return this.forms.find({
      where: { accountId },
      select: { id: true, accountId: true, notifyEmails: true },
    });
  }
}

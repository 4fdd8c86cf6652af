// What the submit route needs to know about a form — its compiled validator, whether its
// domains are checked and which are verified — kept in memory, so an accepted submission
// costs no read of the database. A change to a form drops its entry at once on this
// instance, and on the others too through the form-changes channel when Redis is set;
// without it, entries live FORM_TTL_MS so a change elsewhere shows within that time.
// Whether the form notifies anyone (has notification targets) is kept with it: its
// submissions are then listed in their batch's outbox event. Its channels report every
// change of their targets as a change of the form.
// Unknown ids are remembered for a moment too (a flood of posts to a deleted form costs
// no reads), and forgotten as soon as a form with that id is created.
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { TemporarilyUnavailableException } from '../common/errors/errors.js';
import { DB_DEADLINE_MS } from '../common/database/database-deadline.js';
import { DomainVerificationService } from '../domain-verification/domain-verification.service.js';
import { FormChangesService } from '../forms/changes/form-changes.service.js';
import {
  FormRepository,
  type SubmitFormRow,
} from '../forms/form.repository.js';
import { storedFields } from '../forms/settings/stored-fields.js';
import {
  parseAbsoluteHttpUrl,
  bareHostname,
} from '../forms/settings/redirect-url.js';
import type { RedirectPolicy } from './submit-navigation.js';
import { NotificationTargetCache } from '../notifications/outbox/notification-target.cache.js';
import {
  storedCaptcha,
  storedSpamFilter,
} from '../forms/settings/spam-settings.js';
import { SecretBoxService } from '../auth/secret-box.service.js';
import { AppConfig } from '../config/app-config.js';
import { filePolicies } from '../files/uploads/file-policies.js';
import type { FileFieldPolicy } from '../files/uploads/upload-receiver.js';
import type { SubmitCaptcha } from '../spam/captcha-checker.js';
import {
  compileContentRules,
  type ContentRules,
} from '../spam/content-rules.js';
import {
  compileSubmissionValidator,
  type SubmissionValidator,
} from './submission-validator.js';

/** Lifetime of a cached form while changes on other instances may go unheard. */
export const FORM_TTL_MS = 5_000;
/** Lifetime while the Redis channel delivers every change (a safety net only). */
export const SHARED_FORM_TTL_MS = 60_000;
/** Lifetime of "no such form". */
export const UNKNOWN_FORM_TTL_MS = 5_000;
const MAX_FORMS = 10_000;
const MAX_UNKNOWN = 10_000;

/** A form as the submit route sees it. */
export interface SubmitForm extends RedirectPolicy {
  id: string;
  accountId: string;
  /** The form's `file` fields, or null when it has none (a file part is then refused). */
  files: ReadonlyMap<string, FileFieldPolicy> | null;
  domainVerification: boolean;
  /** Verified domains (ASCII, lower-case): the origin check and `_redirect` targets. */
  verifiedDomains: ReadonlySet<string>;
  successMessage: string | null;
  validate: SubmissionValidator;
  /** The form has notification targets (webhooks, confirmed recipients). */
  notifies: boolean;
  /** The CAPTCHA its submissions must pass (the secret decrypted), or null. */
  captcha: SubmitCaptcha | null;
  /** The form's content rules, compiled; null when its spam filter is off. */
  contentRules: ContentRules | null;
}

interface Entry<T> {
  value: T;
  expiresAt: number;
}

/** Keeps at most `max` entries, dropping the oldest first. */
function remember<T>(
  map: Map<string, Entry<T>>,
  key: string,
  entry: Entry<T>,
  max: number,
): void {
  map.delete(key);
  map.set(key, entry);
  if (map.size > max) {
    const oldest = map.keys().next().value;
    if (oldest !== undefined) map.delete(oldest);
  }
}

@Injectable()
export class FormConfigCache implements OnModuleInit {
  private readonly forms = new Map<string, Entry<SubmitForm>>();
  private readonly unknown = new Map<string, Entry<true>>();
  private readonly loading = new Map<string, Promise<SubmitForm | null>>();
  /** Bumped on every change: a load that started before one is not kept. */
  private generation = 0;
  loads = 0;

  constructor(
    private readonly formRows: FormRepository,
    private readonly domains: DomainVerificationService,
    private readonly changes: FormChangesService,
    private readonly targets: NotificationTargetCache,
    private readonly secretBox: SecretBoxService,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.changes.subscribe((change) => {
      this.generation += 1;
      if (change.kind === 'reset') {
        this.forms.clear();
        this.unknown.clear();
      } else {
        this.unknown.delete(change.formId);
        if (change.kind === 'changed') this.forms.delete(change.formId);
      }
    });
  }

  /**
   * The form, or null when no form has this id. Answers from memory when it can (without
   * a promise), else reads the database within its deadline (503 past it).
   */
  get(formId: string): SubmitForm | null | Promise<SubmitForm | null> {
    const now = Date.now();
    const cached = this.forms.get(formId);
    if (cached !== undefined && cached.expiresAt > now) return cached.value;
    const missing = this.unknown.get(formId);
    if (missing !== undefined && missing.expiresAt > now) return null;
    let pending = this.loading.get(formId);
    if (pending === undefined) {
      pending = this.load(formId).finally(() => this.loading.delete(formId));
      this.loading.set(formId, pending);
    }
    return pending;
  }

  private async load(formId: string): Promise<SubmitForm | null> {
    const generation = this.generation;
    this.loads += 1;
    const form = await withDeadline(this.read(formId));
    if (generation !== this.generation) return form;
    const now = Date.now();
    if (form === null) {
      remember(
        this.unknown,
        formId,
        { value: true, expiresAt: now + UNKNOWN_FORM_TTL_MS },
        MAX_UNKNOWN,
      );
    } else {
      const ttl = this.changes.sharedAcrossInstances
        ? SHARED_FORM_TTL_MS
        : FORM_TTL_MS;
      remember(
        this.forms,
        formId,
        { value: form, expiresAt: now + ttl },
        MAX_FORMS,
      );
    }
    return form;
  }

  private async read(formId: string): Promise<SubmitForm | null> {
    const row = await this.formRows.findForSubmit(formId);
    if (row === null) return null;
    const redirectUrl = parseAbsoluteHttpUrl(row.redirectUrl);
    return {
      id: row.id,
      accountId: row.accountId,
      files: filePolicies(
        storedFields(row.fields),
        this.config.uploads.maxFileSize,
      ),
      domainVerification: Boolean(row.domainVerification),
      verifiedDomains: await this.domains.findVerifiedDomains(row.id),
      redirectUrl: row.redirectUrl ?? null,
      redirectHost: redirectUrl === null ? null : bareHostname(redirectUrl),
      successMessage: row.successMessage ?? null,
      validate: compileSubmissionValidator(storedFields(row.fields)),
      notifies:
        ((await this.targets.of([row.id])).get(row.id)?.targets.length ?? 0) >
        0,
      captcha: this.captchaOf(row),
      contentRules: compileContentRules(storedSpamFilter(row.spamFilter)),
    };
  }

  private captchaOf(row: SubmitFormRow): SubmitCaptcha | null {
    const captcha = storedCaptcha(row.captcha);
    if (captcha === null) return null;
    const sealed = row.captchaSecretEncrypted;
    return {
      provider: captcha.provider,
      siteKey: captcha.siteKey,
      minScore: captcha.minScore,
      ...(captcha.action !== undefined ? { action: captcha.action } : {}),
      secret: sealed ? this.secretBox.decrypt(sealed) : null,
      graceUntil: captcha.graceUntil ? Date.parse(captcha.graceUntil) : null,
    };
  }
}

function withDeadline<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new TemporarilyUnavailableException()),
      DB_DEADLINE_MS,
    );
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

import { SYSTEM_ACTOR, type AuditActor } from '../audit/audit-actor.js';
import type { AuditAction } from '../audit/audit-actions.js';
import {
  AuditLogService,
  type AuditRecord,
} from '../audit/audit-log.service.js';
import type { ApiPrincipal } from '../auth/principal.js';
import {
  ConflictException,
  Inject,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import {
  TooManyRequestsException,
  ValidationFailedException,
} from '../common/errors/errors.js';
import { AppConfig } from '../config/app-config.js';
import type { Form } from '../forms/form.entity.js';
import {
  RATE_LIMIT_STORAGE,
  type RateLimitStorage,
} from '../rate-limit/rate-limit.storage.js';
import {
  NO_VERIFIED_DOMAIN_WARNING,
  DomainVerificationService,
} from './domain-verification.service.js';
import type { AddDomainDto } from './dto/add-domain.dto.js';
import type {
  DomainListResponseDto,
  DomainResponseDto,
} from './dto/domain-response.dto.js';
import type { FormDomain } from './form-domain.entity.js';
import {
  FormDomainRepository,
  type DomainCheck,
} from './form-domain.repository.js';
import { normaliseDomain } from './origin-policy.js';
import { checkTxt, txtNames, txtValue } from './txt-verification.js';
import { isUniqueViolation } from '../common/database/driver-errors.js';

export const DOMAIN_NOT_FOUND = 'Domain not found';
/** A form is meant for a handful of sites; more is almost certainly a mistake or abuse. */
export const MAX_DOMAINS_PER_FORM = 20;
const LAST_ERROR_LENGTH = 500;
/**
 * Verifications (each up to two DNS names) one form may ask for per minute, and one
 * account over all its forms (a form key can create forms, so the per-form budget alone
 * would multiply): no key can turn the server's resolver into a query cannon.
 */
export const VERIFICATIONS_PER_FORM = 10;
export const VERIFICATIONS_PER_ACCOUNT = 100;
const VERIFICATION_WINDOW_MS = 60_000;

function clip(text: string): string {
  return text.length > LAST_ERROR_LENGTH
    ? `${text.slice(0, LAST_ERROR_LENGTH - 1)}…`
    : text;
}

/** The management side of a form's domains: add, list, verify by DNS, delete. */
type Actor = ApiPrincipal | AuditActor;

/** The event of a change of one of a form's domains. */
function domainEvent(
  form: Form,
  by: Actor,
  action: AuditAction,
  row: FormDomain,
): AuditRecord {
  return {
    accountId: form.accountId,
    actor: by,
    action,
    target: { type: 'domain', id: row.id },
    details: { formId: form.id, domain: row.domain },
  };
}

@Injectable()
export class DomainsService {
  constructor(
    private readonly domains: FormDomainRepository,
    private readonly verification: DomainVerificationService,
    private readonly config: AppConfig,
    @Inject(RATE_LIMIT_STORAGE) private readonly limits: RateLimitStorage,
    private readonly auditLog: AuditLogService,
  ) {}

  /** The one place a domain row becomes what the API shows. */
  toResponse(row: FormDomain): DomainResponseDto {
    const [name, alternativeName] = txtNames(row.domain);
    return {
      domain: row.domain,
      status: row.status,
      token: row.token,
      record: {
        type: 'TXT',
        name,
        value: txtValue(row.token),
        alternativeName,
      },
      verifiedAt: row.verifiedAt?.toISOString() ?? null,
      lastCheckedAt: row.lastCheckedAt?.toISOString() ?? null,
      lastError: row.lastError ?? null,
      createdAt: row.createdAt.toISOString(),
    };
  }

  async list(form: Form): Promise<DomainListResponseDto> {
    const rows = await this.domains.listOf(form.id);
    const anyVerified = rows.some((row) => row.status === 'verified');
    return {
      data: rows.map((row) => this.toResponse(row)),
      warning:
        form.domainVerification && !anyVerified
          ? NO_VERIFIED_DOMAIN_WARNING
          : null,
    };
  }

  async add(
    form: Form,
    input: AddDomainDto,
    by: Actor = SYSTEM_ACTOR,
  ): Promise<DomainResponseDto> {
    const normalised = normaliseDomain(input.domain);
    if (!normalised.ok) {
      throw new ValidationFailedException([normalised.problem]);
    }
    const { domain } = normalised;
    const duplicate = () =>
      new ConflictException(`${domain} is already a domain of this form`);
    if (await this.domains.exists(form.id, domain)) throw duplicate();
    if ((await this.domains.countOf(form.id)) >= MAX_DOMAINS_PER_FORM) {
      throw new ConflictException(
        `This form already has ${MAX_DOMAINS_PER_FORM} domains, the most it can have: delete one before adding another`,
      );
    }
    const row = this.domains.create({
      id: randomBytes(16).toString('base64url'),
      formId: form.id,
      domain,
      // 160 random bits; hex survives every DNS provider's TXT editor unchanged.
      token: randomBytes(20).toString('hex'),
      status: 'pending',
      verifiedAt: null,
      lastCheckedAt: null,
      lastError: null,
    });
    try {
      await this.auditLog.recordChange(
        domainEvent(form, by, 'domain.added', row),
        async (manager) => (await this.domains.in(manager).insert(row), true),
      );
    } catch (error) {
      // Two requests adding the same domain at once: the unique index decides.
      if (isUniqueViolation(error)) throw duplicate();
      throw error;
    }
    return this.toResponse(row);
  }

  /**
   * Looks the TXT record up now. Success makes the domain verified; failure leaves it as it
   * was (a verified domain stays verified) and records why in lastError. DNS trouble is
   * never an HTTP error: the answer is 200 with the domain's state.
   */
  async verify(
    form: Form,
    domainParam: string,
    by: Actor = SYSTEM_ACTOR,
  ): Promise<DomainResponseDto> {
    const row = await this.findDomain(form.id, domainParam);
    await this.spendVerification(form.id, form.accountId);
    const check = await checkTxt(row.domain, row.token, this.config.dnsServers);
    const now = new Date();
    const changes: DomainCheck = check.verified
      ? {
          status: 'verified',
          verifiedAt: row.verifiedAt ?? now,
          lastCheckedAt: now,
          lastError: null,
        }
      : {
          status: row.status,
          verifiedAt: row.verifiedAt,
          lastCheckedAt: now,
          lastError: clip(
            row.status === 'verified'
              ? `The record was not found this time; the domain stays verified until it is deleted. ${check.error}`
              : check.error,
          ),
        };
    const update = (manager?: EntityManager) =>
      (manager ? this.domains.in(manager) : this.domains).recordCheck(
        row.id,
        changes,
      );
    // Only becoming verified is a change the audit log records, not each check.
    const updated =
      changes.status !== row.status
        ? await this.auditLog.recordChange(
            domainEvent(form, by, 'domain.verified', row),
            update,
          )
        : await update();
    // Deleted while DNS was being asked.
    if (!updated) throw new NotFoundException(DOMAIN_NOT_FOUND);
    if (changes.status !== row.status) this.verification.invalidate(form.id);
    return this.toResponse(Object.assign(row, changes));
  }

  async remove(
    form: Form,
    domainParam: string,
    by: Actor = SYSTEM_ACTOR,
  ): Promise<void> {
    const row = await this.findDomain(form.id, domainParam);
    await this.auditLog.recordChange(
      domainEvent(form, by, 'domain.removed', row),
      (manager) => this.domains.in(manager).delete(row.id),
    );
    this.verification.invalidate(form.id);
  }

  /** Counts one verification against the form's and the account's budgets, or 429. */
  private async spendVerification(
    formId: string,
    accountId: string,
  ): Promise<void> {
    const spend = (key: string, limit: number) =>
      this.limits.increment(
        key,
        VERIFICATION_WINDOW_MS,
        limit,
        VERIFICATION_WINDOW_MS,
        'dns-verify',
      );
    const perForm = await spend(`dns-verify:${formId}`, VERIFICATIONS_PER_FORM);
    if (perForm.isBlocked) {
      throw new TooManyRequestsException(
        `Too many verifications of this form's domains: at most ${VERIFICATIONS_PER_FORM} a minute. Retry in ${perForm.timeToBlockExpire} seconds.`,
        perForm.timeToBlockExpire,
      );
    }
    const perAccount = await spend(
      `dns-verify-account:${accountId}`,
      VERIFICATIONS_PER_ACCOUNT,
    );
    if (perAccount.isBlocked) {
      throw new TooManyRequestsException(
        `Too many domain verifications in this account: at most ${VERIFICATIONS_PER_ACCOUNT} a minute over all its forms. Retry in ${perAccount.timeToBlockExpire} seconds.`,
        perAccount.timeToBlockExpire,
      );
    }
  }

  /** The path's domain, written in any case or in Unicode, or 404. */
  private async findDomain(formId: string, raw: string): Promise<FormDomain> {
    const normalised = normaliseDomain(raw);
    const row = normalised.ok
      ? await this.domains.find(formId, normalised.domain)
      : null;
    if (!row) throw new NotFoundException(DOMAIN_NOT_FOUND);
    return row;
  }
}

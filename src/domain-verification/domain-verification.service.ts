import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { FormChangesService } from '../forms/form-changes.service.js';
import type { Form } from '../forms/form.entity.js';
import type { FormWarnings } from '../forms/form-warnings.js';
import { FormDomain } from './form-domain.entity.js';
import { decideOrigin } from './origin-policy.js';

/** The request headers the origin check reads. */
export interface SubmitOriginHeaders {
  origin?: string;
  referer?: string;
}

export const NO_VERIFIED_DOMAIN_WARNING =
  'Domain verification is on but no domain is verified yet: only development hosts (localhost, 127.0.0.1, 192.168.x.x) can submit.';

/**
 * How long this instance trusts its copy of a form's verified domains. Changes invalidate it
 * at once (on other instances too, through the form-changes channel when Redis is set);
 * this bounds how stale it is when a change could not be heard.
 */
export const VERIFIED_DOMAINS_TTL_MS = 30_000;
const MAX_CACHED_FORMS = 10_000;

interface CachedDomains {
  /** The form's updatedAt when loaded: any update of the form row reloads. */
  formUpdatedAt: number;
  expiresAt: number;
  domains: ReadonlySet<string>;
}

/**
 * The hot path of domain verification: the submit check and what the form's settings
 * should warn about (FORM_WARNINGS). It depends only on the form_domain table.
 */
@Injectable()
export class DomainVerificationService implements FormWarnings, OnModuleInit {
  private readonly cache = new Map<string, CachedDomains>();
  /** Bumped on every change, so a load that raced with a change is not cached. */
  private generation = 0;

  constructor(
    @InjectRepository(FormDomain)
    private readonly domains: Repository<FormDomain>,
    private readonly changes: FormChangesService,
  ) {}

  onModuleInit(): void {
    this.changes.subscribe((change) => {
      this.generation += 1;
      if (change.kind === 'reset') this.cache.clear();
      else this.cache.delete(change.formId);
    });
  }

  /**
   * The submit pipeline's domain check (the third check, after the rate limit and the form
   * lookup; see docs/architecture.md). Resolves to null when the
   * request may proceed, or to the reason (a sentence for the 403 body) when it may not.
   * Forms without domain verification always pass.
   */
  async checkSubmitOrigin(
    form: Form,
    headers: SubmitOriginHeaders,
  ): Promise<string | null> {
    if (!form.domainVerification) return null;
    const decision = await decideOrigin(headers, () =>
      this.verifiedDomains(form),
    );
    return decision.allowed ? null : decision.reason;
  }

  /**
   * A sentence for the form's API response and settings page when its configuration
   * refuses every real site: verification on with no verified domain. Else null.
   */
  async warningFor(form: Form): Promise<string | null> {
    if (!form.domainVerification) return null;
    const verified = await this.verifiedDomains(form);
    return verified.size === 0 ? NO_VERIFIED_DOMAIN_WARNING : null;
  }

  /** Announces that the form's domains changed: every cached copy, on every instance, goes. */
  invalidate(formId: string): void {
    this.changes.changed(formId);
  }

  /** The form's verified domains (ASCII, lower-case), read from the database now. */
  async findVerifiedDomains(formId: string): Promise<ReadonlySet<string>> {
    const rows = await this.domains.find({
      select: { domain: true },
      where: { formId, status: 'verified' },
    });
    return new Set(rows.map((row) => row.domain));
  }

  /** The form's verified domains (ASCII, lower-case), cached per form for a short while. */
  async verifiedDomains(form: Form): Promise<ReadonlySet<string>> {
    const formUpdatedAt =
      form.updatedAt instanceof Date ? form.updatedAt.getTime() : Number.NaN;
    const now = Date.now();
    const cached = this.cache.get(form.id);
    if (
      cached &&
      cached.formUpdatedAt === formUpdatedAt &&
      cached.expiresAt > now
    ) {
      return cached.domains;
    }
    const generation = this.generation;
    const domains = await this.findVerifiedDomains(form.id);
    if (generation === this.generation) {
      this.cache.delete(form.id);
      this.cache.set(form.id, {
        formUpdatedAt,
        expiresAt: now + VERIFIED_DOMAINS_TTL_MS,
        domains,
      });
      // Maps iterate in insertion order: drop the least recently loaded forms.
      for (const key of this.cache.keys()) {
        if (this.cache.size <= MAX_CACHED_FORMS) break;
        this.cache.delete(key);
      }
    }
    return domains;
  }
}

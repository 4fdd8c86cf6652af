import { Injectable } from '@nestjs/common';
import { FormChangesService } from '../forms/changes/form-changes.service.js';
import type { Form } from '../forms/form.entity.js';
import type { FormWarnings } from '../forms/answers/form-warnings.js';
import { FormDomainRepository } from './form-domain.repository.js';

export const NO_VERIFIED_DOMAIN_WARNING =
  'Domain verification is on but no domain is verified yet: only development hosts (localhost, 127.0.0.1, 192.168.x.x) can submit.';

/**
 * What the form's settings should warn about (FORM_WARNINGS), and the announcement that a
 * form's domains changed. The submit check itself reads the verified domains the submit
 * cache holds (submit/form-config.cache.ts) and decides with origin-policy.ts.
 */
@Injectable()
export class DomainVerificationService implements FormWarnings {
  constructor(
    private readonly domains: FormDomainRepository,
    private readonly changes: FormChangesService,
  ) {}

  /**
   * A sentence for the form's API response and settings page when its configuration
   * refuses every real site: verification on with no verified domain. Else null.
   */
  async warningFor(form: Form): Promise<string | null> {
    if (!form.domainVerification) return null;
    const verified = await this.findVerifiedDomains(form.id);
    return verified.size === 0 ? NO_VERIFIED_DOMAIN_WARNING : null;
  }

  /** Announces that the form's domains changed: every cached copy, on every instance, goes. */
  invalidate(formId: string): void {
    this.changes.changed(formId);
  }

  /** The form's verified domains (ASCII, lower-case), read from the database now. */
  async findVerifiedDomains(formId: string): Promise<ReadonlySet<string>> {
    return new Set(await this.domains.verifiedOf(formId));
  }
}

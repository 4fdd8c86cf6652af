import {
  ConflictException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { withoutTrailingSlashes } from '../common/values/trailing-slashes.js';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { AuditDetails } from '../audit/audit-hash.js';
import { AuditLogService } from '../audit/audit-log.service.js';
import type { Role } from '../auth/permissions.js';
import { SecretBoxService } from '../auth/secret-box.service.js';
import { isUniqueViolation } from '../common/database/driver-errors.js';
import { ValidationFailedException } from '../common/errors/errors.js';
import { newUlid } from '../common/values/ulid.js';
import { AppConfig } from '../config/app-config.js';
import { normaliseDomain } from '../domain-verification/origin-policy.js';
import {
  checkTxt,
  txtNames,
  txtValue,
} from '../domain-verification/txt-verification.js';
import {
  auditedSsoChange,
  savedDetails,
  settingsProblems,
  type SsoActor,
} from './sso-audit.js';
import type { SsoDomain } from './sso-domain.entity.js';
import { SsoDomainRepository } from './sso-domain.repository.js';
import { SsoSettingsRepository } from './sso-settings.repository.js';
import {
  DEFAULT_SSO_ROLE,
  domainOfEmail,
  isJoinRole,
  type SsoRoute,
  type SsoSettingsInput,
  type SsoSettingsView,
} from './sso-settings.types.js';

/** How long one instance trusts what it read of an account's "require SSO". */
export const REQUIREMENT_CACHE_MS = 5_000;

/** At most this many SSO domains per account. */
export const MAX_SSO_DOMAINS = 20;

/**
 * An account's SSO settings and domains. Each change is one method (the audit log records
 * it there): save, add a domain, verify one, remove one, turn SSO off.
 */
@Injectable()
export class SsoSettingsService {
  constructor(
    private readonly settings: SsoSettingsRepository,
    private readonly domains: SsoDomainRepository,
    private readonly box: SecretBoxService,
    private readonly config: AppConfig,
    private readonly auditLog: AuditLogService,
  ) {}

  /** Per account: the verified SSO domains that require SSO (empty when it is not required). */
  private readonly requirements = new Map<
    string,
    { domains: ReadonlySet<string>; expiresAt: number }
  >();

  /** The address to register at the provider as the redirect (callback) URI. */
  callbackUrl(): string {
    return `${withoutTrailingSlashes(this.config.publicUrl)}/dashboard/sso/callback`;
  }

  async view(accountId: string): Promise<SsoSettingsView> {
    const row = await this.settings.find(accountId);
    const domains = await this.domains.listOf(accountId);
    return {
      configured: row !== null,
      issuerUrl: row?.issuerUrl ?? '',
      clientId: row?.clientId ?? '',
      hasClientSecret: Boolean(row?.clientSecretEncrypted),
      defaultRole:
        row && isJoinRole(row.defaultRole) ? row.defaultRole : DEFAULT_SSO_ROLE,
      requireSso: row?.requireSso ?? false,
      callbackUrl: this.callbackUrl(),
      domains: domains.map((domain) => ({
        id: domain.id,
        domain: domain.domain,
        status: domain.status,
        recordNames: txtNames(domain.domain),
        recordValue: txtValue(domain.token),
        verifiedAt: domain.verifiedAt,
        lastCheckedAt: domain.lastCheckedAt,
        lastError: domain.lastError,
      })),
    };
  }

  /** Saves the settings (SSO settings changed). Bad input → ValidationFailedException. */
  async save(
    accountId: string,
    input: SsoSettingsInput,
    by?: SsoActor,
  ): Promise<void> {
    const issuerUrl = input.issuerUrl.trim();
    const clientId = input.clientId.trim();
    const clientSecret = input.clientSecret.trim();
    const existing = await this.settings.find(accountId);
    const errors = settingsProblems(
      { issuerUrl, clientId, clientSecret, defaultRole: input.defaultRole },
      existing !== null,
    );
    if (input.requireSso) {
      const verified = await this.domains.countVerifiedOf(accountId);
      if (verified === 0) {
        errors.push(
          'Require SSO needs a verified SSO domain: add the domain below, publish its DNS TXT record and select Verify first',
        );
      }
    }
    if (errors.length > 0) throw new ValidationFailedException(errors);
    this.requirements.delete(accountId);
    const values = {
      issuerUrl,
      clientId,
      defaultRole: input.defaultRole as Role,
      requireSso: input.requireSso,
      ...(clientSecret
        ? { clientSecretEncrypted: this.box.encrypt(clientSecret) }
        : {}),
    };
    const details = savedDetails(existing, values, Boolean(clientSecret));
    await this.audited(accountId, by, async (manager) => {
      const settings = this.settings.in(manager);
      if (existing) {
        await settings.update(accountId, values);
      } else {
        await settings.insert({
          accountId,
          ...values,
          clientSecretEncrypted: this.box.encrypt(clientSecret),
        });
      }
      return details;
    });
  }

  /** Turns SSO off (SSO settings changed): the settings go; the domains stay proven. */
  async remove(accountId: string, by?: SsoActor): Promise<void> {
    this.requirements.delete(accountId);
    await this.audited(accountId, by, async (manager) =>
      (await this.settings.in(manager).delete(accountId))
        ? { change: 'removed' }
        : null,
    );
  }

  /**
   * Claims a domain for SSO (SSO settings changed): pending until its TXT record is
   * verified; until then it routes no one.
   */
  async addDomain(
    accountId: string,
    text: string,
    by?: SsoActor,
  ): Promise<SsoDomain> {
    const normalised = normaliseDomain(text);
    if (!normalised.ok) {
      throw new ValidationFailedException([normalised.problem]);
    }
    if ((await this.domains.countOf(accountId)) >= MAX_SSO_DOMAINS) {
      throw new ValidationFailedException([
        `An account can have at most ${MAX_SSO_DOMAINS} SSO domains`,
      ]);
    }
    const row = this.domains.create({
      id: newUlid(),
      accountId,
      domain: normalised.domain,
      token: randomBytes(20).toString('hex'),
      status: 'pending',
      verifiedAt: null,
      lastCheckedAt: null,
      lastError: null,
    });
    try {
      await this.audited(accountId, by, (manager) =>
        this.domains
          .in(manager)
          .insert(row)
          .then(() => ({ domainAdded: row.domain })),
      );
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new ConflictException(
          `${normalised.domain} is already an SSO domain of this account`,
        );
      }
      throw error;
    }
    return row;
  }

  /**
   * Looks up the domain's TXT record (SSO settings changed when it becomes verified).
   * A domain another account has already proven is refused: a domain routes to one account.
   */
  async verifyDomain(
    accountId: string,
    id: string,
    by?: SsoActor,
  ): Promise<SsoDomain> {
    const row = await this.ownDomain(accountId, id);
    const wasVerified = row.status === 'verified';
    const check = await checkTxt(row.domain, row.token, this.config.dnsServers);
    row.lastCheckedAt = new Date();
    this.requirements.delete(accountId);
    if (check.verified) {
      const taken = await this.domains.verifiedClaim(row.domain);
      if (taken && taken.accountId !== accountId) {
        row.lastError = `${row.domain} is already an SSO domain of another account`;
      } else {
        row.status = 'verified';
        row.verifiedAt ??= row.lastCheckedAt;
        row.lastError = null;
      }
    } else {
      row.lastError = check.error.slice(0, 500);
    }
    await this.audited(accountId, by, async (manager) => {
      await this.domains.in(manager).recordCheck(row.id, {
        status: row.status,
        verifiedAt: row.verifiedAt,
        lastCheckedAt: row.lastCheckedAt,
        lastError: row.lastError,
      });
      const verified = !wasVerified && row.status === 'verified';
      return verified ? { domainVerified: row.domain } : null; // else a check alone
    });
    return row;
  }

  /** Removes an SSO domain (SSO settings changed). */
  async removeDomain(
    accountId: string,
    id: string,
    by?: SsoActor,
  ): Promise<void> {
    this.requirements.delete(accountId);
    const row = await this.ownDomain(accountId, id);
    await this.audited(accountId, by, async (manager) =>
      (await this.domains.in(manager).delete(row.id))
        ? { domainRemoved: row.domain }
        : null,
    );
  }

  private audited(
    accountId: string,
    by: SsoActor | undefined,
    change: (manager: EntityManager) => Promise<AuditDetails | null>,
  ): Promise<void> {
    return auditedSsoChange(this.auditLog, accountId, by, change);
  }

  private async ownDomain(accountId: string, id: string): Promise<SsoDomain> {
    const row =
      typeof id === 'string' && id.length <= 32
        ? await this.domains.find(accountId, id)
        : null;
    if (!row) throw new NotFoundException('SSO domain not found');
    return row;
  }

  /** Every claim of this domain, verified ones first. */
  claimsOf(domain: string): Promise<SsoDomain[]> {
    return this.domains.claimsOf(domain);
  }

  /** The account's settings with the secret opened, and its verified domains; null when off. */
  async routeOf(accountId: string): Promise<SsoRoute | null> {
    const row = await this.settings.routeOf(accountId);
    if (!row) return null;
    const domains = await this.domains.verifiedOf(accountId);
    return {
      accountId,
      issuerUrl: row.issuerUrl,
      clientId: row.clientId,
      clientSecret: this.box.decrypt(row.clientSecretEncrypted),
      defaultRole: isJoinRole(row.defaultRole)
        ? row.defaultRole
        : DEFAULT_SSO_ROLE,
      domains: domains.map((domain) => domain.domain),
    };
  }

  /**
   * Whether the account requires SSO for this address ("require SSO" on, the address's
   * domain one of its verified SSO domains). Asked on every signed-in request of a
   * non-owner not signed in through SSO, so cached briefly per account (a change here is
   * seen at once on this instance, within REQUIREMENT_CACHE_MS on the others).
   */
  async requiresSso(accountId: string, email: string): Promise<boolean> {
    const cached = this.requirements.get(accountId);
    let domains: ReadonlySet<string>;
    if (cached && cached.expiresAt > Date.now()) {
      domains = cached.domains;
    } else {
      const required = await this.settings.requiresSso(accountId);
      domains = new Set(
        required
          ? (await this.domains.verifiedOf(accountId)).map((row) => row.domain)
          : [],
      );
      if (this.requirements.size >= 10_000) this.requirements.clear();
      this.requirements.set(accountId, {
        domains,
        expiresAt: Date.now() + REQUIREMENT_CACHE_MS,
      });
    }
    return domains.has(domainOfEmail(email));
  }

  /**
   * The accounts that require SSO for this address: those with "require SSO" on whose
   * verified SSO domains include the address's domain.
   */
  async accountsRequiringSso(email: string): Promise<string[]> {
    const domain = domainOfEmail(email);
    if (!domain) return [];
    const claims = await this.domains.verifiedClaims(domain);
    if (claims.length === 0) return [];
    const requiring: string[] = [];
    for (const claim of claims) {
      if (await this.settings.requiresSso(claim.accountId)) {
        requiring.push(claim.accountId);
      }
    }
    return requiring;
  }
}

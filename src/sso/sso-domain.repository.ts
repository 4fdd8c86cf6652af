// Every statement on sso_domain, the domains accounts claim for single sign-on: added,
// checked by DNS, removed, and read to route an address to its account.
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, type EntityManager } from 'typeorm';
import { SsoDomain } from './sso-domain.entity.js';

/** What a DNS check writes of a domain. */
export type SsoDomainCheck = Pick<
  SsoDomain,
  'status' | 'verifiedAt' | 'lastCheckedAt' | 'lastError'
>;

@Injectable()
export class SsoDomainRepository {
  constructor(
    @InjectRepository(SsoDomain)
    private readonly domains: Repository<SsoDomain>,
  ) {}

  /** This repository working in `manager`'s transaction (a change and its audit event). */
  in(manager: EntityManager): SsoDomainRepository {
    return new SsoDomainRepository(manager.getRepository(SsoDomain));
  }

  create(values: Omit<SsoDomain, 'createdAt' | 'account'>): SsoDomain {
    return this.domains.create(values);
  }

  async insert(row: SsoDomain): Promise<void> {
    await this.domains.insert(row);
  }

  /** The account's domains, by name. */
  listOf(accountId: string): Promise<SsoDomain[]> {
    return this.domains.find({
      where: { accountId },
      order: { domain: 'ASC' },
    });
  }

  countOf(accountId: string): Promise<number> {
    return this.domains.countBy({ accountId });
  }

  countVerifiedOf(accountId: string): Promise<number> {
    return this.domains.countBy({ accountId, status: 'verified' });
  }

  verifiedOf(accountId: string): Promise<SsoDomain[]> {
    return this.domains.findBy({ accountId, status: 'verified' });
  }

  find(accountId: string, id: string): Promise<SsoDomain | null> {
    return this.domains.findOneBy({ id, accountId });
  }

  /** The account that proved `domain`, if one did. */
  verifiedClaim(domain: string): Promise<SsoDomain | null> {
    return this.domains.findOneBy({ domain, status: 'verified' });
  }

  /** Every verified claim of `domain`. */
  verifiedClaims(domain: string): Promise<SsoDomain[]> {
    return this.domains.findBy({ domain, status: 'verified' });
  }

  /** Every claim of `domain`, verified ones first. */
  claimsOf(domain: string): Promise<SsoDomain[]> {
    return this.domains.find({
      where: { domain },
      order: { status: 'DESC', createdAt: 'ASC' },
    });
  }

  async recordCheck(id: string, check: SsoDomainCheck): Promise<void> {
    await this.domains.update({ id }, check);
  }

  /** false when it was already gone. */
  async delete(id: string): Promise<boolean> {
    return Boolean((await this.domains.delete({ id })).affected);
  }
}

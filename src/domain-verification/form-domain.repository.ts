// Every statement on form_domain, a form's domains and their DNS proofs: the management
// API adds, checks and deletes them, the settings warning and the submit cache read the
// verified ones.
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, type EntityManager } from 'typeorm';
import { FormDomain } from './form-domain.entity.js';

/** What a DNS check writes of a domain. */
export type DomainCheck = Pick<
  FormDomain,
  'status' | 'verifiedAt' | 'lastCheckedAt' | 'lastError'
>;

@Injectable()
export class FormDomainRepository {
  constructor(
    @InjectRepository(FormDomain)
    private readonly domains: Repository<FormDomain>,
  ) {}

  /** This repository working in `manager`'s transaction (a change and its audit event). */
  in(manager: EntityManager): FormDomainRepository {
    return new FormDomainRepository(manager.getRepository(FormDomain));
  }

  /** Builds a domain row (its creation time is stamped on insert). */
  create(values: Omit<FormDomain, 'createdAt' | 'form'>): FormDomain {
    return this.domains.create(values);
  }

  async insert(row: FormDomain): Promise<void> {
    await this.domains.insert(row);
  }

  /** The form's verified domains. */
  async verifiedOf(formId: string): Promise<string[]> {
    const rows = await this.domains.find({
      select: { domain: true },
      where: { formId, status: 'verified' },
    });
    return rows.map((row) => row.domain);
  }

  /** The form's domains, oldest first. */
  listOf(formId: string): Promise<FormDomain[]> {
    return this.domains.find({
      where: { formId },
      order: { createdAt: 'ASC', domain: 'ASC' },
    });
  }

  /** The form's row of `domain` (normalised), or null. */
  find(formId: string, domain: string): Promise<FormDomain | null> {
    return this.domains.findOneBy({ formId, domain });
  }

  exists(formId: string, domain: string): Promise<boolean> {
    return this.domains.existsBy({ formId, domain });
  }

  countOf(formId: string): Promise<number> {
    return this.domains.countBy({ formId });
  }

  /** Writes a check's outcome; false when the domain is gone. */
  async recordCheck(id: string, changes: DomainCheck): Promise<boolean> {
    return Boolean((await this.domains.update({ id }, changes)).affected);
  }

  /** false when the domain was already gone. */
  async delete(id: string): Promise<boolean> {
    return Boolean((await this.domains.delete({ id })).affected);
  }
}

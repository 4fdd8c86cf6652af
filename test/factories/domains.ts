import { ulid } from 'ulid';
import {
  FormDomain,
  type DomainStatus,
} from '../../src/domain-verification/form-domain.entity.js';
import type { TestApp } from '../support/test-app.js';

/**
 * A domain of a form, stored directly (as another instance, or an earlier verification,
 * would have left it): pending unless a status is given; a verified one gets verifiedAt.
 */
export async function createDomain(
  t: TestApp,
  formId: string,
  input: {
    domain?: string;
    status?: DomainStatus;
    token?: string;
    createdAt?: Date;
  } = {},
): Promise<FormDomain> {
  const now = input.createdAt ?? new Date();
  const status = input.status ?? 'pending';
  const repo = t.dataSource.getRepository(FormDomain);
  const domain = repo.create({
    id: ulid(),
    formId,
    domain: input.domain ?? 'example.com',
    token: input.token ?? 'x'.repeat(40),
    status,
    verifiedAt: status === 'verified' ? now : null,
    lastCheckedAt: status === 'verified' ? now : null,
    lastError: null,
    createdAt: now,
  });
  await repo.insert(domain);
  return domain;
}

import { randomBytes } from 'node:crypto';
import { AccountsService } from '../../src/accounts/accounts.service.js';
import { Account } from '../../src/accounts/account.entity.js';
import type { TestApp } from '../support/test-app.js';

export const TEST_PASSWORD = 'correct-horse-42';

export interface TestAccount {
  account: Account;
  /** An account API key (fga_…) reaching every form of the account. */
  apiKey: string;
}

/**
 * An account as an established owner has it: its address verified (as a sign-up's is once
 * its link was opened; `verified: false` leaves it as a fresh sign-up's).
 */
export async function createAccount(
  t: TestApp,
  email?: string,
  options: { verified?: boolean } = {},
): Promise<TestAccount> {
  const accounts = t.app.get(AccountsService);
  const account = await accounts.create(
    email ?? `owner-${randomBytes(4).toString('hex')}@example.com`,
    TEST_PASSWORD,
  );
  if (options.verified !== false) {
    account.emailVerifiedAt = new Date();
    await t.dataSource
      .getRepository(Account)
      .update({ id: account.id }, { emailVerifiedAt: account.emailVerifiedAt });
  }
  const { apiKey } = await accounts.createApiKey(account.id, 'tests');
  return { account, apiKey };
}

/** Another account API key (fga_…) of the account, named `name`. */
export async function createAccountApiKey(
  t: TestApp,
  accountId: string,
  name = 'another key',
): Promise<string> {
  const { apiKey } = await t.app
    .get(AccountsService)
    .createApiKey(accountId, name);
  return apiKey;
}

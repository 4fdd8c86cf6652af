import { randomBytes } from 'node:crypto';
import { AccountsService } from '../../src/accounts/accounts.service.js';
import type { Account } from '../../src/accounts/account.entity.js';
import type { TestApp } from '../support/test-app.js';

export const TEST_PASSWORD = 'correct-horse-42';

export interface TestAccount {
  account: Account;
  /** An account API key (fga_…) reaching every form of the account. */
  apiKey: string;
}

export async function createAccount(
  t: TestApp,
  email?: string,
): Promise<TestAccount> {
  const accounts = t.app.get(AccountsService);
  const account = await accounts.create(
    email ?? `owner-${randomBytes(4).toString('hex')}@example.com`,
    TEST_PASSWORD,
  );
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

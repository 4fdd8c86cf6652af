import { randomBytes } from 'node:crypto';
import { AccountsService } from '../../src/accounts/accounts.service.js';
import type { Account } from '../../src/accounts/account.entity.js';
import { MembershipsService } from '../../src/accounts/memberships.service.js';
import { User } from '../../src/accounts/user.entity.js';
import type { KeyRole, Role } from '../../src/auth/permissions.js';
import type { TestApp } from '../support/test-app.js';

export const TEST_PASSWORD = 'correct-horse-42';

export interface TestAccount {
  account: Account;
  /** Its owner, who signed up with it (the same id as the account). */
  user: User;
  /** An account API key (fga_…, admin) reaching every form of the account. */
  apiKey: string;
}

/**
 * An account as an established owner has it: its owner's address verified (as a
 * sign-up's is once its link was opened; `verified: false` leaves it as a fresh
 * sign-up's).
 */
export async function createAccount(
  t: TestApp,
  email?: string,
  options: { verified?: boolean } = {},
): Promise<TestAccount> {
  const accounts = t.app.get(AccountsService);
  const { user, account } = await accounts.create(
    email ?? `owner-${randomBytes(4).toString('hex')}@example.com`,
    TEST_PASSWORD,
  );
  if (options.verified !== false) {
    user.emailVerifiedAt = new Date();
    await t.dataSource
      .getRepository(User)
      .update({ id: user.id }, { emailVerifiedAt: user.emailVerifiedAt });
  }
  const { apiKey } = await accounts.createApiKey(account.id, 'tests');
  return { account, user, apiKey };
}

/** Another account API key (fga_…) of the account, named `name` (admin unless `role`). */
export async function createAccountApiKey(
  t: TestApp,
  accountId: string,
  name = 'another key',
  role?: KeyRole,
): Promise<string> {
  const { apiKey } = await t.app
    .get(AccountsService)
    .createApiKey(accountId, name, { role });
  return apiKey;
}

/**
 * A member of `accountId` with `role`: a new user (verified, password TEST_PASSWORD)
 * unless `user` is given, as accepting an invitation would make them.
 */
export async function createMember(
  t: TestApp,
  accountId: string,
  role: Role,
  user?: User,
): Promise<User> {
  const member =
    user ??
    (await t.app
      .get(AccountsService)
      .createUser(
        `${role}-${randomBytes(4).toString('hex')}@example.com`,
        TEST_PASSWORD,
        { verified: true },
      ));
  await t.app.get(MembershipsService).put(accountId, member.id, role);
  return member;
}

// `npm run cli -- users:reset-2fa --email <address>`, run as an operator runs it (the built
// CLI in a process of its own, against the app's database): a locked-out user's TOTP,
// recovery codes and passkeys go, it says what it removed, and the password alone signs
// in again.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { newUlid } from '../../../src/common/values/ulid.js';
import { Passkey } from '../../../src/second-factors/passkey.entity.js';
import { RecoveryCode } from '../../../src/second-factors/recovery-code.entity.js';
import { UserTotp } from '../../../src/second-factors/user-totp.entity.js';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { DashboardClient } from '../../support/dashboard-client.js';
import { setUpTotp } from '../../support/second-factors.js';
import {
  createTestApp,
  TEST_APP_SECRET,
  type TestApp,
} from '../../support/test-app.js';
import {
  createTestDatabase,
  type TestDatabase,
} from '../../support/test-database.js';

const CLI_JS = resolve('dist/src/cli.js');

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

describe('users:reset-2fa (e2e)', () => {
  let database: TestDatabase;
  let t: TestApp;
  let owner: TestAccount;

  function cli(...args: string[]): Promise<CliResult> {
    return promisify(execFile)(process.execPath, [CLI_JS, ...args], {
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: database.url,
        APP_SECRET: TEST_APP_SECRET,
      },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({
        code: error.code,
        stdout: error.stdout,
        stderr: error.stderr,
      }),
    );
  }
  const count = async (
    entity: typeof UserTotp | typeof RecoveryCode | typeof Passkey,
  ) => t.dataSource.getRepository(entity).countBy({ userId: owner.user.id });

  beforeAll(async () => {
    if (!existsSync(CLI_JS)) {
      throw new Error(
        `${CLI_JS} is missing: run "node scripts/build.mjs" first`,
      );
    }
    database = await createTestDatabase({ shared: true });
    t = await createTestApp({ database });
    owner = await createAccount(t);
    const c = new DashboardClient(t.url);
    expect((await c.logIn(owner.user.email)).status).toBe(303);
    await setUpTotp(c);
    // A passkey as a registration stores it.
    await t.dataSource.getRepository(Passkey).insert({
      id: newUlid(),
      userId: owner.user.id,
      credentialId: 'credential-of-the-test',
      publicKey: 'cHVibGljLWtleQ',
      counter: 1,
      transports: 'internal',
      name: 'Laptop',
      createdAt: new Date(),
      lastUsedAt: null,
    });
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it('removes TOTP, recovery codes and passkeys, and says so', async () => {
    expect(
      (await new DashboardClient(t.url).logIn(owner.user.email)).location,
    ).toBe('/dashboard/sign-in/second-step');
    const result = await cli(
      'users:reset-2fa',
      '--email',
      owner.user.email.toUpperCase(),
    );
    expect(result.code, result.stderr).toBe(0);
    const output = JSON.parse(result.stdout.trim().split('\n').at(-1)!);
    expect(output).toMatchObject({
      userId: owner.user.id,
      email: owner.user.email,
      totp: 'removed',
      recoveryCodes: '10',
      passkeys: '1',
    });
    expect(output.done).toContain(
      'Removed two-step codes (TOTP), 10 unused recovery codes, 1 passkey',
    );
    expect(await count(UserTotp)).toBe(0);
    expect(await count(RecoveryCode)).toBe(0);
    expect(await count(Passkey)).toBe(0);
    // The password alone signs in now.
    expect(
      (await new DashboardClient(t.url).logIn(owner.user.email)).location,
    ).toBe('/dashboard/forms');
  });

  it('refuses an unknown address with exit code 1, and bad arguments with 2', async () => {
    const unknown = await cli(
      'users:reset-2fa',
      '--email',
      'nobody@example.com',
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      'no user with the email nobody@example.com',
    );
    const bad = await cli('users:reset-2fa');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--email is required');
  });
});

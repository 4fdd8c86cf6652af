// The operator CLI, run as operators run it: a separate Node process, compiled from the
// sources, against a database file (or a MySQL/MariaDB database with TEST_DATABASE_URL).
import { execFile, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { AccountsService } from '../../../src/accounts/accounts.service.js';
import { request } from '../../support/http.js';
import { createTestApp, TEST_APP_SECRET } from '../../support/test-app.js';
import {
  createTestDatabase,
  usingMysql,
  type TestDatabase,
} from '../../support/test-database.js';
import {
  countRows,
  storedApiKeys,
  storedPasswordHash,
} from '../../support/stored-rows.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const PASSWORD = 'correct-horse-42';

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe('operator CLI (e2e)', () => {
  let workDir: string;
  let cliPath: string;
  let database: TestDatabase;

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'formgate-cli-'));
    // A private build, so the shared ./dist is left alone; it resolves packages from the
    // repository's node_modules and runs as ESM like the real build.
    const outDir = join(workDir, 'build');
    mkdirSync(outDir);
    symlinkSync(join(ROOT, 'node_modules'), join(outDir, 'node_modules'));
    writeFileSync(join(outDir, 'package.json'), '{"type":"module"}');
    await promisify(execFile)(
      process.execPath,
      [
        join(ROOT, 'node_modules/typescript/bin/tsc'),
        '-p',
        join(ROOT, 'tsconfig.build.json'),
        '--outDir',
        outDir,
      ],
      { cwd: ROOT },
    ).catch(() => {
      // Type errors elsewhere in the tree still emit JavaScript; the file check below decides.
    });
    cliPath = join(outDir, 'src/cli.js');
    expect(existsSync(cliPath)).toBe(true);
    database = usingMysql()
      ? await createTestDatabase()
      : {
          url: `sqlite:${join(workDir, 'formgate.sqlite')}`,
          drop: async () => {},
        };
  }, 240_000);

  afterAll(async () => {
    await database?.drop();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  function cli(
    args: string[],
    options: { env?: Record<string, string>; stdin?: string } = {},
  ): Promise<CliResult> {
    return new Promise((resolvePromise, reject) => {
      const child = spawn(process.execPath, [cliPath, ...args], {
        cwd: workDir,
        env: {
          PATH: process.env.PATH ?? '',
          DATABASE_URL: database.url,
          APP_SECRET: TEST_APP_SECRET,
          ...options.env,
        },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
      child.stdin.end(options.stdin ?? '');
    });
  }

  const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? '';
  const email = () => `owner-${randomBytes(4).toString('hex')}@example.com`;
  const sha256 = (value: string) =>
    createHash('sha256').update(value).digest('hex');

  /** Checks what the CLI stored through the real app on the same database. */
  async function withApp<T>(
    check: (app: Awaited<ReturnType<typeof createTestApp>>) => Promise<T>,
  ): Promise<T> {
    const t = await createTestApp({ database });
    try {
      return await check(t);
    } finally {
      await t.close();
    }
  }

  it('accounts:create creates the account and an account key, and prints them as JSON', async () => {
    const address = email();
    const res = await cli([
      'accounts:create',
      '--email',
      `  ${address.toUpperCase()} `,
      '--password',
      PASSWORD,
    ]);
    expect(res.code).toBe(0);
    const output = JSON.parse(lastLine(res.stdout));
    expect(Object.keys(output)).toEqual(['accountId', 'email', 'apiKey']);
    expect(output.email).toBe(address);
    expect(output.accountId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(output.apiKey).toMatch(/^fga_[A-Za-z0-9_-]{43}$/);
    // Nothing but the JSON line on stdout, and the key never on stderr.
    expect(res.stdout).toBe(`${JSON.stringify(output)}\n`);
    expect(res.stderr).not.toContain(output.apiKey);

    await withApp(async (t) => {
      const account = await t.app
        .get(AccountsService)
        .authenticate(address, PASSWORD);
      expect(account?.id).toBe(output.accountId);
      const [row] = await storedApiKeys(t, output.accountId);
      expect(row).toMatchObject({
        accountId: output.accountId,
        keyHash: sha256(output.apiKey),
        prefix: output.apiKey.slice(0, 12),
        revokedAt: null,
      });
      expect(await storedPasswordHash(t, output.accountId)).toMatch(
        /^scrypt\$131072\$8\$1\$/,
      );
      // The printed key works on the API at once.
      const created = await request(`${t.url}/api/v1/forms`, {
        apiKey: output.apiKey,
        json: { name: 'From the CLI key' },
      });
      expect(created.status).toBe(201);
      const list = await request(`${t.url}/api/v1/forms`, {
        apiKey: output.apiKey,
      });
      expect(list.body.data.map((f: { name: string }) => f.name)).toEqual([
        'From the CLI key',
      ]);
    });
  });

  it('accounts:create reads the password from stdin with --password-stdin', async () => {
    const address = email();
    const res = await cli(
      ['accounts:create', '--email', address, '--password-stdin'],
      {
        stdin: `${PASSWORD}\n`,
      },
    );
    expect(res.code).toBe(0);
    const output = JSON.parse(lastLine(res.stdout));
    expect(output.email).toBe(address);
    await withApp(async (t) => {
      const account = await t.app
        .get(AccountsService)
        .authenticate(address, PASSWORD);
      expect(account?.id).toBe(output.accountId);
    });
  });

  it('keys:create prints a new account key with its name', async () => {
    const address = email();
    const first = await cli([
      'accounts:create',
      '--email',
      address,
      '--password',
      PASSWORD,
    ]);
    expect(first.code).toBe(0);
    const account = JSON.parse(lastLine(first.stdout));

    const res = await cli([
      'keys:create',
      '--email',
      address,
      '--name',
      'Billing service',
    ]);
    expect(res.code).toBe(0);
    const output = JSON.parse(lastLine(res.stdout));
    expect(output).toEqual({
      accountId: account.accountId,
      email: address,
      apiKey: output.apiKey,
      name: 'Billing service',
    });
    expect(Object.keys(output)).toEqual([
      'accountId',
      'email',
      'apiKey',
      'name',
    ]);
    expect(output.apiKey).toMatch(/^fga_/);
    expect(output.apiKey).not.toBe(account.apiKey);

    await withApp(async (t) => {
      const rows = (await storedApiKeys(t, account.accountId)).map(
        ({ name, keyHash }) => ({ name, keyHash }),
      );
      expect(rows).toEqual([
        { name: 'Billing service', keyHash: sha256(output.apiKey) },
        { name: 'Created with the account', keyHash: sha256(account.apiKey) },
      ]);
      for (const apiKey of [account.apiKey, output.apiKey]) {
        const res = await request(`${t.url}/api/v1/forms`, { apiKey });
        expect(res.status).toBe(200);
      }
    });
  });

  it('keys:create makes a read-only, expiring key with --read-only and --expires-at', async () => {
    const address = email();
    const first = await cli([
      'accounts:create',
      '--email',
      address,
      '--password',
      PASSWORD,
    ]);
    expect(first.code).toBe(0);
    const account = JSON.parse(lastLine(first.stdout));
    const expiresAt = new Date(Date.now() + 7 * 86_400_000);
    expiresAt.setUTCMilliseconds(0);
    const res = await cli([
      'keys:create',
      '--email',
      address,
      '--name',
      'Reporting',
      '--read-only',
      '--expires-at',
      expiresAt.toISOString().replace('.000Z', 'Z'),
    ]);
    expect(res.code).toBe(0);
    const output = JSON.parse(lastLine(res.stdout));
    expect(output).toEqual({
      accountId: account.accountId,
      email: address,
      apiKey: expect.stringMatching(/^fga_/),
      name: 'Reporting',
      readOnly: 'true',
      expiresAt: expiresAt.toISOString(),
    });

    await withApp(async (t) => {
      const [row] = await t.dataSource.query(
        'SELECT readOnly, expiresAt FROM account_api_key WHERE keyHash = ?',
        [sha256(output.apiKey)],
      );
      expect(Boolean(Number(row.readOnly))).toBe(true);
      const read = await request(`${t.url}/api/v1/forms`, {
        apiKey: output.apiKey,
      });
      expect(read.status).toBe(200);
      const write = await request(`${t.url}/api/v1/forms`, {
        apiKey: output.apiKey,
        json: { name: 'Nope' },
      });
      expect(write.status).toBe(403);
      const keys = await request(`${t.url}/api/v1/account/keys`, {
        apiKey: output.apiKey,
      });
      expect(
        keys.body.data.find((k: { name: string }) => k.name === 'Reporting'),
      ).toMatchObject({ readOnly: true, expiresAt: expiresAt.toISOString() });
    });

    for (const bad of ['2020-01-01', 'next week']) {
      const refused = await cli([
        'keys:create',
        '--email',
        address,
        '--name',
        'Late',
        '--expires-at',
        bad,
      ]);
      expect(refused.stdout).toBe('');
      expect(refused.code).toBe(bad === 'next week' ? 2 : 1);
      expect(refused.stderr).toContain(
        bad === 'next week'
          ? '--expires-at must be an ISO 8601 date'
          : 'expiresAt must be in the future',
      );
    }
  });

  it('keeps stdout to the JSON line even with verbose logging', async () => {
    const res = await cli(
      ['accounts:create', '--email', email(), '--password', PASSWORD],
      { env: { LOG_LEVEL: 'debug' } },
    );
    expect(res.code).toBe(0);
    expect(res.stdout.trimEnd().split('\n')).toHaveLength(1);
    const output = JSON.parse(lastLine(res.stdout));
    expect(output.apiKey).toMatch(/^fga_/);
    expect(res.stderr).toContain('Connected to');
    expect(res.stderr).not.toContain(output.apiKey);
  });

  describe('refusals', () => {
    async function expectFailure(
      args: string[],
      code: number,
      message: string,
    ): Promise<void> {
      const res = await cli(args);
      expect(res.code, args.join(' ')).toBe(code);
      expect(res.stdout).toBe('');
      expect(res.stderr).toBe(`error: ${message}\n`);
    }

    it('refuses a duplicate email and creates nothing', async () => {
      const address = email();
      const first = await cli([
        'accounts:create',
        '--email',
        address,
        '--password',
        PASSWORD,
      ]);
      expect(first.code).toBe(0);
      await expectFailure(
        [
          'accounts:create',
          '--email',
          address.toUpperCase(),
          '--password',
          'another-pass-99',
        ],
        1,
        'An account with this email already exists',
      );
      await withApp(async (t) => {
        expect(
          await countRows(t, 'user', { column: 'email', value: address }),
        ).toBe(1);
      });
    });

    it('refuses a weak password and a malformed email', async () => {
      const address = email();
      await expectFailure(
        ['accounts:create', '--email', address, '--password', 'short'],
        1,
        'password must be at least 10 characters long; password must mix letters with digits or symbols',
      );
      await expectFailure(
        ['accounts:create', '--email', 'not-an-email', '--password', PASSWORD],
        1,
        'email must be a valid email address',
      );
      await withApp(async (t) => {
        expect(
          await t.app.get(AccountsService).findByEmail(address),
        ).toBeNull();
      });
    });

    it('refuses a key for an unknown account, and a bad key name', async () => {
      await expectFailure(
        ['keys:create', '--email', 'nobody@example.com', '--name', 'x'],
        1,
        'no account with the email nobody@example.com',
      );
      const address = email();
      expect(
        (
          await cli([
            'accounts:create',
            '--email',
            address,
            '--password',
            PASSWORD,
          ])
        ).code,
      ).toBe(0);
      await expectFailure(
        ['keys:create', '--email', address, '--name', 'n'.repeat(101)],
        1,
        'name must be 1 to 100 characters long',
      );
    });

    it('refuses bad arguments with exit code 2', async () => {
      await expectFailure([], 2, 'a command is required (see --help)');
      await expectFailure(
        ['users:delete'],
        2,
        'unknown command "users:delete" (see --help)',
      );
      await expectFailure(
        ['accounts:create', '--email', 'a@example.com'],
        2,
        'give exactly one of --password or --password-stdin (see --help)',
      );
      await expectFailure(
        ['keys:create', '--email', 'a@example.com'],
        2,
        '--name is required (see --help)',
      );
      await expectFailure(
        ['keys:create', '--email', 'a@example.com', '--name', 'x', '--admin'],
        2,
        "Unknown option '--admin' (see --help)",
      );
      await expectFailure(
        [
          'keys:create',
          '--email',
          'a@example.com',
          '--name',
          'x',
          '--password',
          'p',
        ],
        2,
        '--password does not apply to keys:create (see --help)',
      );
    });

    it('names a bad configuration variable', async () => {
      const res = await cli(
        ['keys:create', '--email', 'a@example.com', '--name', 'x'],
        {
          env: { APP_SECRET: 'too short' },
        },
      );
      expect(res.code).toBe(1);
      expect(res.stdout).toBe('');
      expect(res.stderr).toBe(
        'error: Invalid configuration: APP_SECRET must be at least 32 characters\n',
      );
    });
  });

  it('prints its usage with --help', async () => {
    const res = await cli(['--help']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('accounts:create --email <email>');
    expect(res.stdout).toContain(
      'keys:create --email <email> --name <key name>',
    );
    expect(res.stderr).toBe('');
  });
});

// Upgrades an operator can trust: a build started on a database that a newer release has
// migrated (its migrations table names a migration this build does not have) refuses to
// start, naming the migrations, with exit code 3 — never serving 500s or storing rows in a
// schema it does not know; `npm run migration:run` refuses the same way; and the schema
// check reads a MariaDB server as MariaDB whatever DATABASE_URL's scheme says.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { DataSource } from 'typeorm';
import { createApp } from '../../../src/app.setup.js';
import { DatabaseStateService } from '../../../src/common/database/database-state.service.js';
import {
  UNKNOWN_MIGRATIONS_EXIT_CODE,
  UnknownMigrationsError,
} from '../../../src/common/database/unknown-migrations.js';
import {
  loadConfig,
  parseDatabaseUrl,
} from '../../../src/config/app-config.js';
import { buildDataSourceOptions } from '../../../src/database/database-options.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import { request } from '../../support/http.js';
import { startServer } from '../../support/server-process.js';
import { describeWhen } from '../../support/skips.js';
import { createTestApp, TEST_APP_SECRET } from '../../support/test-app.js';
import {
  createTestDatabase,
  NEEDS_MYSQL,
  usingMysql,
  type TestDatabase,
} from '../../support/test-database.js';

const FUTURE = 'TeamsAndRoles1799999999999';
const LATER = 'AuditLog1799999999998';

/** Runs a built script as `npm run …` would, with only the given environment. */
function run(
  script: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [resolve(script)], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => done({ code, stdout, stderr }));
  });
}

describe('a database a newer release has migrated (e2e)', () => {
  let database: TestDatabase;
  let formId: string;

  beforeAll(async () => {
    // Migrated by this build, with an account and a form in it; then a newer release's
    // migrations are recorded as a newer build would have left them.
    database = await createTestDatabase({ shared: true });
    const t = await createTestApp({ database });
    const { account } = await createAccount(t);
    formId = (await createForm(t, account.id)).form.id;
    const e = (name: string) => t.dataSource.driver.escape(name);
    for (const name of [FUTURE, LATER]) {
      await t.dataSource.query(
        `INSERT INTO ${e('migrations')} (${e('timestamp')}, ${e('name')}) VALUES (?, ?)`,
        [Number(name.slice(-13)), name],
      );
    }
    await t.close();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('the server refuses to start, naming the migrations it does not know, with exit code 3', async () => {
    const server = await startServer({
      APP_SECRET: TEST_APP_SECRET,
      DATABASE_URL: database.url,
      LOG_FORMAT: 'json',
    });
    const code = await server.exited;
    expect(code).toBe(UNKNOWN_MIGRATIONS_EXIT_CODE);
    expect(UNKNOWN_MIGRATIONS_EXIT_CODE).toBe(3);
    const lines = server
      .stdout()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    const refusal = lines.find((line) => line.msg.includes(FUTURE));
    expect(refusal, server.stdout()).toBeDefined();
    expect(refusal!.level).toBe(50);
    expect(refusal!.msg).toContain(
      `The database has 2 migrations this build of Formgate does not know (${LATER}, ${FUTURE}): a newer release has upgraded it.`,
    );
    expect(refusal!.msg).toContain('npm run migration:revert');
    expect(lines.some((line) => line.msg.includes('Formgate is ready'))).toBe(
      false,
    );
  });

  it('meanwhile answers 503 to a submission and stores nothing', async () => {
    const app = await createApp(
      loadConfig({
        APP_SECRET: TEST_APP_SECRET,
        DATABASE_URL: database.url,
        LOG_LEVEL: 'silent',
      }),
    );
    try {
      const state = app.get(DatabaseStateService);
      const refused = await state.whenConnected().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(UnknownMigrationsError);
      expect((refused as UnknownMigrationsError).names).toEqual([
        LATER,
        FUTURE,
      ]);
      expect(state.isConnected).toBe(false);
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.getHttpServer().address();
      const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const submitted = await request(`${url}/api/submit/${formId}`, {
        json: { name: 'Ada', email: 'ada@example.com' },
      });
      expect(submitted.status).toBe(503);
      expect(submitted.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(submitted.body).toEqual({ error: expect.any(String) });
      expect((await request(`${url}/health/ready`)).status).toBe(503);
    } finally {
      await app.close();
    }
    // Nothing was written: the submission table is empty, the migrations are as they were.
    const t = await openDatabase(database);
    try {
      const [{ n }] = await t.query('SELECT COUNT(*) AS n FROM submission');
      expect(Number(n)).toBe(0);
      const names = (await t.query('SELECT name FROM migrations')) as Array<{
        name: string;
      }>;
      expect(names.map((row) => row.name)).toEqual(
        expect.arrayContaining([FUTURE, LATER]),
      );
    } finally {
      await t.destroy();
    }
  });

  it('the notification worker refuses too, with exit code 3', async () => {
    const result = await run('dist/src/worker.js', {
      APP_SECRET: TEST_APP_SECRET,
      DATABASE_URL: database.url,
      LOG_FORMAT: 'json',
    });
    expect(result.code).toBe(3);
    const refusal = result.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .find((line) => line.msg.includes(FUTURE));
    expect(refusal, result.stdout).toMatchObject({ level: 50 });
    expect(refusal!.msg).toContain(`(${LATER}, ${FUTURE})`);
  });

  it('npm run migration:run refuses too, naming them, with exit code 3', async () => {
    const result = await run('dist/src/database/migrate.js', {
      APP_SECRET: TEST_APP_SECRET,
      DATABASE_URL: database.url,
    });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim()).toBe(
      `The database has 2 migrations this build of Formgate does not know (${LATER}, ${FUTURE}): a newer release has upgraded it. ` +
        'Run that release (or newer), or restore the backup taken before the upgrade; to go back a release, ' +
        'revert the newer migrations with that release first (npm run migration:revert, see docs/operations.md).',
    );
  });
});

/** A bare connection to the test database, to read what is stored without the app. */
function openDatabase(database: TestDatabase): Promise<DataSource> {
  return new DataSource(
    buildDataSourceOptions(parseDatabaseUrl(database.url), false),
  ).initialize();
}

describeWhen(usingMysql(), NEEDS_MYSQL)(
  'the schema check on MariaDB reached through mysql:// (e2e)',
  () => {
    it('finds no difference on a fresh database, and says to write mariadb://', async () => {
      const database = await createTestDatabase();
      try {
        const url = database.url.replace(/^mariadb:/, 'mysql:');
        expect(url.startsWith('mysql://')).toBe(true);
        const result = await run('dist/src/database/schema-check.js', {
          APP_SECRET: TEST_APP_SECRET,
          DATABASE_URL: url,
        });
        expect(result.stdout.trim()).toBe(
          'schema check (mariadb): entities and migrations agree',
        );
        expect(result.stderr).toMatch(
          /^schema check: the server is MariaDB \(.*MariaDB.*\): read as mariadb although DATABASE_URL starts with mysql:\/\/; write mariadb:\/\/ in DATABASE_URL\n$/,
        );
        expect(result.code).toBe(0);
      } finally {
        await database.drop();
      }
    });
  },
);

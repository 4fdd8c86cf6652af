// A database made by the release before accounts had members (accounts with an email and a
// password, forms with their keys, account keys full and read-only, an open dashboard
// session) keeps working once the app migrates it: every key does what it did, the
// session stays signed in, the owner signs in with the same password, and each account is
// now a user with the same id and that user its owner. Runs the real migrations on a real
// database (an SQLite file, or MariaDB).
import { DataSource } from 'typeorm';
import { hashPassword } from '../../../src/accounts/password.js';
import { generateApiKey } from '../../../src/auth/api-keys.js';
import { SecretBoxService } from '../../../src/auth/secret-box.service.js';
import {
  loadConfig,
  parseDatabaseUrl,
} from '../../../src/config/app-config.js';
import { DashboardSessionsService } from '../../../src/dashboard/session/dashboard-sessions.service.js';
import { buildDataSourceOptions } from '../../../src/database/database-options.js';
import { MIGRATIONS } from '../../../migrations/index.js';
import { Teams1765000000000 } from '../../../migrations/1765000000000-Teams.js';
import { TEST_PASSWORD } from '../../factories/accounts.js';
import { DashboardClient } from '../../support/dashboard-client.js';
import { request } from '../../support/http.js';
import { createTestApp, TEST_APP_SECRET } from '../../support/test-app.js';
import {
  createTestDatabase,
  type TestDatabase,
} from '../../support/test-database.js';

const CREATED = '2025-06-01 10:00:00.000';
const SESSION_TOKEN = 'an-old-session-token-of-the-previous-release-0';

describe('teams migration on a database of the previous release (e2e)', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase({ shared: true });
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('keeps every key and sign-in working, and makes each account a user and its owner', async () => {
    const formKey = generateApiKey('form');
    const fullKey = generateApiKey('account');
    const readOnlyKey = generateApiKey('account');
    const box = new SecretBoxService(
      loadConfig({ APP_SECRET: TEST_APP_SECRET, DATABASE_URL: database.url }),
    );
    const before = new DataSource({
      ...buildDataSourceOptions(parseDatabaseUrl(database.url), false),
      migrations: MIGRATIONS.slice(0, MIGRATIONS.indexOf(Teams1765000000000)),
    });
    await before.initialize();
    try {
      await before.runMigrations({ transaction: 'each' });
      const e = (name: string) => before.driver.escape(name);
      const insert = (table: string, row: Record<string, unknown>) =>
        before.query(
          `INSERT INTO ${e(table)} (${Object.keys(row).map(e).join(', ')}) VALUES (${Object.keys(
            row,
          )
            .map(() => '?')
            .join(', ')})`,
          Object.values(row),
        );
      await insert('account', {
        id: '01OLDOWNER',
        email: 'old-owner@example.com',
        passwordHash: await hashPassword(TEST_PASSWORD),
        emailVerifiedAt: CREATED,
        createdAt: CREATED,
        updatedAt: CREATED,
      });
      await insert('form', {
        id: 'oldFormId0000000000000',
        accountId: '01OLDOWNER',
        name: 'Old contact',
        fields: JSON.stringify([{ id: 'email', type: 'email' }]),
        domainVerification: 0,
        apiKeyHash: formKey.hash,
        apiKeyEncrypted: box.encrypt(formKey.key),
        apiKeyPrefix: formKey.prefix,
        createdAt: CREATED,
        updatedAt: CREATED,
      });
      for (const [id, key, readOnly] of [
        ['01FULLKEY', fullKey, 0],
        ['01READKEY', readOnlyKey, 1],
      ] as const) {
        await insert('account_api_key', {
          id,
          accountId: '01OLDOWNER',
          name: id,
          keyHash: key.hash,
          prefix: key.prefix,
          createdAt: CREATED,
          readOnly,
        });
      }
      await insert('dashboard_session', {
        tokenHash: DashboardSessionsService.hashToken(SESSION_TOKEN),
        accountId: '01OLDOWNER',
        csrfSecret: 'old-csrf-secret',
        createdAt: CREATED,
        expiresAt: '2099-01-01 00:00:00.000',
      });
    } finally {
      await before.destroy();
    }

    // The app migrates the database as it starts.
    const t = await createTestApp({ database });
    try {
      const e = (name: string) => t.dataSource.driver.escape(name);
      expect(
        await t.dataSource.query(
          `SELECT id, email, emailVerifiedAt FROM ${e('user')}`,
        ),
      ).toMatchObject([{ id: '01OLDOWNER', email: 'old-owner@example.com' }]);
      expect(
        await t.dataSource.query(
          'SELECT accountId, userId, role FROM membership',
        ),
      ).toEqual([
        { accountId: '01OLDOWNER', userId: '01OLDOWNER', role: 'owner' },
      ]);
      expect(
        await t.dataSource.query(`SELECT id, name FROM ${e('account')}`),
      ).toEqual([{ id: '01OLDOWNER', name: 'old-owner@example.com' }]);
      expect(
        await t.dataSource.query(
          'SELECT id, role FROM account_api_key ORDER BY id',
        ),
      ).toEqual([
        { id: '01FULLKEY', role: 'admin' },
        { id: '01READKEY', role: 'viewer' },
      ]);
      expect(
        await t.dataSource.query(
          'SELECT userId, accountId FROM dashboard_session',
        ),
      ).toEqual([{ userId: '01OLDOWNER', accountId: '01OLDOWNER' }]);

      const formUrl = `${t.url}/api/v1/forms/oldFormId0000000000000`;
      const byForm = await request(formUrl, { apiKey: formKey.key });
      expect(byForm.status).toBe(200);
      expect(byForm.body).toMatchObject({ name: 'Old contact' });
      // The full key still does everything, key management included.
      const minted = await request(`${t.url}/api/v1/account/keys`, {
        apiKey: fullKey.key,
        json: { name: 'After the upgrade', role: 'admin' },
      });
      expect(minted.status).toBe(201);
      expect(minted.body).toMatchObject({ role: 'admin', readOnly: false });
      const renamed = await request(formUrl, {
        method: 'PATCH',
        apiKey: fullKey.key,
        json: { name: 'Contact' },
      });
      expect(renamed.status).toBe(200);
      // The read-only key reads and only reads, as before.
      const keys = await request(`${t.url}/api/v1/account/keys`, {
        apiKey: readOnlyKey.key,
      });
      expect(keys.status).toBe(200);
      expect(
        keys.body.data.find((k: { id: string }) => k.id === '01READKEY'),
      ).toMatchObject({ role: 'viewer', readOnly: true });
      const refused = await request(formUrl, {
        method: 'DELETE',
        apiKey: readOnlyKey.key,
      });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        error: 'This API key is read-only: it may only read (GET requests)',
      });

      // The open session stays signed in; the owner signs in with the same password.
      const session = new DashboardClient(t.url);
      session.cookies.set('dashboard_session', SESSION_TOKEN);
      const forms = await session.get('/dashboard/forms');
      expect(forms.status).toBe(200);
      expect(forms.html).toContain('Contact');
      const fresh = new DashboardClient(t.url);
      const signedIn = await fresh.logIn('old-owner@example.com');
      expect(signedIn.status).toBe(303);
      expect(signedIn.location).toBe('/dashboard/forms');
      expect((await fresh.get('/dashboard/forms')).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

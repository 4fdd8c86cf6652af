// Accounts made before account verification existed count as verified once the migration
// runs (their owners keep getting the alerts they got before); accounts made after start
// unverified. Runs the real migrations on a real database (SQLite file, or MariaDB).
import { DataSource } from 'typeorm';
import { User } from '../../../src/accounts/user.entity.js';
import { parseDatabaseUrl } from '../../../src/config/app-config.js';
import { buildDataSourceOptions } from '../../../src/database/database-options.js';
import { MIGRATIONS } from '../../../migrations/index.js';
import { AccountEmailVerification1764810000000 } from '../../../migrations/1764810000000-AccountEmailVerification.js';
import {
  createTestDatabase,
  type TestDatabase,
} from '../../support/test-database.js';

describe('account verification migration (e2e)', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase({ shared: true });
  });
  afterAll(async () => {
    await database?.drop();
  });

  async function migrated(
    migrations: typeof MIGRATIONS,
    work: (dataSource: DataSource) => Promise<void>,
  ): Promise<void> {
    const dataSource = new DataSource({
      ...buildDataSourceOptions(parseDatabaseUrl(database.url), false),
      migrations,
    });
    await dataSource.initialize();
    try {
      await dataSource.runMigrations({ transaction: 'each' });
      await work(dataSource);
    } finally {
      await dataSource.destroy();
    }
  }

  it('marks existing accounts verified at their creation time, and only them', async () => {
    const before = MIGRATIONS.slice(
      0,
      MIGRATIONS.indexOf(AccountEmailVerification1764810000000),
    );
    const createdAt = '2025-06-01 10:00:00.000';
    await migrated(before, async (dataSource) => {
      const e = (name: string) => dataSource.driver.escape(name);
      await dataSource.query(
        `INSERT INTO ${e('account')} (${e('id')}, ${e('email')}, ${e('passwordHash')}, ${e('createdAt')}, ${e('updatedAt')}) VALUES (?, ?, ?, ?, ?)`,
        ['01OLDACCOUNT', 'old@example.com', 'x', createdAt, createdAt],
      );
    });
    await migrated(MIGRATIONS, async (dataSource) => {
      // The person of an account is its user since accounts have members.
      const users = dataSource.getRepository(User);
      const old = await users.findOneByOrFail({ id: '01OLDACCOUNT' });
      expect(old.emailVerifiedAt).toEqual(new Date('2025-06-01T10:00:00.000Z'));
      await users.insert(
        users.create({
          id: '01NEWACCOUNT',
          email: 'new@example.com',
          passwordHash: 'x',
        }),
      );
      const fresh = await users.findOneByOrFail({ id: '01NEWACCOUNT' });
      expect(fresh.emailVerifiedAt).toBeNull();
    });
  });
});

import {
  MigrationInterface,
  QueryRunner,
  Table,
  TableColumn,
  TableColumnOptions,
  TableForeignKey,
  TableIndex,
} from 'typeorm';

const timestamp = (name: string, isNullable = false): TableColumnOptions => ({
  name,
  type: 'datetime',
  precision: 3,
  isNullable,
});
const varchar = (
  name: string,
  length: number,
  extra: Partial<TableColumnOptions> = {},
): TableColumnOptions => ({
  name,
  type: 'varchar',
  length: String(length),
  ...extra,
});
const cascadeTo = (column: string, table: string) =>
  new TableForeignKey({
    columnNames: [column],
    referencedTableName: table,
    referencedColumnNames: ['id'],
    onDelete: 'CASCADE',
    onUpdate: 'NO ACTION',
  });

/** The person's columns, which move from `account` to `user`. */
const PERSON_COLUMNS = [
  'email',
  'passwordHash',
  'emailVerifiedAt',
  'verifyTokenHash',
  'verifyTokenExpiresAt',
  'verifySentAt',
];

/**
 * Accounts with members: a person (`user`) apart from the tenant (`account`), joined by a
 * `membership` with a role. Every existing account becomes a user with the same id, email,
 * password and verification, and that user its owner; its sessions are that user's; its
 * account keys keep doing all they did (`admin`, or `viewer` for read-only ones).
 */
export class Teams1765000000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    const e = (name: string) => queryRunner.connection.driver.escape(name);
    await queryRunner.createTable(
      new Table({
        name: 'user',
        columns: [
          varchar('id', 32, { isPrimary: true }),
          varchar('email', 254),
          varchar('passwordHash', 255, { isNullable: true }),
          timestamp('emailVerifiedAt', true),
          varchar('verifyTokenHash', 64, { isNullable: true }),
          timestamp('verifyTokenExpiresAt', true),
          timestamp('verifySentAt', true),
          timestamp('createdAt'),
          timestamp('updatedAt'),
        ],
        indices: [
          { name: 'UQ_user_email', columnNames: ['email'], isUnique: true },
          {
            name: 'UQ_user_verify_token_hash',
            columnNames: ['verifyTokenHash'],
            isUnique: true,
          },
        ],
      }),
    );
    const moved = ['id', ...PERSON_COLUMNS, 'createdAt', 'updatedAt']
      .map(e)
      .join(', ');
    await queryRunner.query(
      `INSERT INTO ${e('user')} (${moved}) SELECT ${moved} FROM ${e('account')}`,
    );

    await queryRunner.createTable(
      new Table({
        name: 'membership',
        columns: [
          varchar('accountId', 32, { isPrimary: true }),
          varchar('userId', 32, { isPrimary: true }),
          varchar('role', 16),
          timestamp('createdAt'),
          timestamp('updatedAt'),
        ],
        indices: [{ name: 'IDX_membership_user', columnNames: ['userId'] }],
        foreignKeys: [
          cascadeTo('accountId', 'account'),
          cascadeTo('userId', 'user'),
        ],
      }),
    );
    await queryRunner.query(
      `INSERT INTO ${e('membership')} (${e('accountId')}, ${e('userId')}, ${e('role')}, ${e('createdAt')}, ${e('updatedAt')}) ` +
        `SELECT ${e('id')}, ${e('id')}, 'owner', ${e('createdAt')}, ${e('createdAt')} FROM ${e('account')}`,
    );

    // Filled before it is required, so the column can be added to a table with rows.
    await queryRunner.addColumn(
      'account',
      new TableColumn(varchar('name', 200, { isNullable: true })),
    );
    await queryRunner.query(
      `UPDATE ${e('account')} SET ${e('name')} = SUBSTR(${e('email')}, 1, 200)`,
    );
    await requireColumn(queryRunner, 'account', varchar('name', 200));
    await queryRunner.dropIndex('account', 'UQ_account_email');
    await queryRunner.dropIndex('account', 'UQ_account_verify_token_hash');
    await queryRunner.dropColumns('account', PERSON_COLUMNS);

    await queryRunner.addColumn(
      'dashboard_session',
      new TableColumn(varchar('userId', 32, { isNullable: true })),
    );
    await queryRunner.query(
      `UPDATE ${e('dashboard_session')} SET ${e('userId')} = ${e('accountId')}`,
    );
    await requireColumn(
      queryRunner,
      'dashboard_session',
      varchar('userId', 32),
    );
    await queryRunner.createIndex(
      'dashboard_session',
      new TableIndex({ columnNames: ['userId'] }),
    );
    await queryRunner.createForeignKey(
      'dashboard_session',
      cascadeTo('userId', 'user'),
    );

    await queryRunner.addColumn(
      'account_api_key',
      new TableColumn(varchar('role', 16, { isNullable: true })),
    );
    await queryRunner.query(
      `UPDATE ${e('account_api_key')} SET ${e('role')} = CASE WHEN ${e('readOnly')} = 1 THEN 'viewer' ELSE 'admin' END`,
    );
    await requireColumn(queryRunner, 'account_api_key', varchar('role', 16));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const e = (name: string) => queryRunner.connection.driver.escape(name);
    await queryRunner.dropColumn('account_api_key', 'role');

    const session = await queryRunner.getTable('dashboard_session');
    for (const foreignKey of session!.foreignKeys.filter((fk) =>
      fk.columnNames.includes('userId'),
    )) {
      await queryRunner.dropForeignKey('dashboard_session', foreignKey);
    }
    for (const index of session!.indices.filter((i) =>
      i.columnNames.includes('userId'),
    )) {
      await queryRunner.dropIndex('dashboard_session', index);
    }
    await queryRunner.dropColumn('dashboard_session', 'userId');

    // Each account takes back the person of its earliest owner.
    await queryRunner.addColumns('account', [
      new TableColumn(varchar('email', 254, { isNullable: true })),
      new TableColumn(varchar('passwordHash', 255, { isNullable: true })),
      new TableColumn(timestamp('emailVerifiedAt', true)),
      new TableColumn(varchar('verifyTokenHash', 64, { isNullable: true })),
      new TableColumn(timestamp('verifyTokenExpiresAt', true)),
      new TableColumn(timestamp('verifySentAt', true)),
    ]);
    for (const column of PERSON_COLUMNS) {
      await queryRunner.query(
        `UPDATE ${e('account')} SET ${e(column)} = (SELECT u.${e(column)} FROM ${e('user')} u ` +
          `WHERE u.${e('id')} = ${e('account')}.${e('id')})`,
      );
    }
    await requireColumn(queryRunner, 'account', varchar('email', 254));
    await requireColumn(queryRunner, 'account', varchar('passwordHash', 255));
    await queryRunner.createIndex(
      'account',
      new TableIndex({
        name: 'UQ_account_email',
        columnNames: ['email'],
        isUnique: true,
      }),
    );
    await queryRunner.createIndex(
      'account',
      new TableIndex({
        name: 'UQ_account_verify_token_hash',
        columnNames: ['verifyTokenHash'],
        isUnique: true,
      }),
    );
    await queryRunner.dropColumn('account', 'name');
    await queryRunner.dropTable('membership');
    await queryRunner.dropTable('user');
  }
}

/** Makes a column filled by the migration NOT NULL. */
async function requireColumn(
  queryRunner: QueryRunner,
  table: string,
  column: TableColumnOptions,
): Promise<void> {
  await queryRunner.changeColumn(
    table,
    column.name,
    new TableColumn({ ...column, isNullable: false }),
  );
}

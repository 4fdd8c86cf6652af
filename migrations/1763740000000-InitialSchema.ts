import {
  MigrationInterface,
  QueryRunner,
  Table,
  TableColumnOptions,
} from 'typeorm';

// Written with TypeORM's Table API so the same migration runs on MySQL/MariaDB and SQLite.
const id = (name = 'id'): TableColumnOptions => ({
  name,
  type: 'varchar',
  length: '32',
  isPrimary: name === 'id',
});
const ref = (name: string): TableColumnOptions => ({
  name,
  type: 'varchar',
  length: '32',
});
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
) =>
  ({
    name,
    type: 'varchar',
    length: String(length),
    ...extra,
  }) as TableColumnOptions;
const cascadeTo = (column: string, table: string) => ({
  columnNames: [column],
  referencedTableName: table,
  referencedColumnNames: ['id'],
  onDelete: 'CASCADE',
  onUpdate: 'NO ACTION',
});

export class InitialSchema1763740000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'account',
        columns: [
          id(),
          varchar('email', 254),
          varchar('passwordHash', 255),
          timestamp('createdAt'),
          timestamp('updatedAt'),
        ],
        indices: [
          { name: 'UQ_account_email', columnNames: ['email'], isUnique: true },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'account_api_key',
        columns: [
          id(),
          ref('accountId'),
          varchar('name', 100),
          varchar('keyHash', 64),
          varchar('prefix', 16),
          timestamp('createdAt'),
          timestamp('lastUsedAt', true),
          timestamp('revokedAt', true),
        ],
        indices: [
          { columnNames: ['accountId'] },
          {
            name: 'UQ_account_api_key_hash',
            columnNames: ['keyHash'],
            isUnique: true,
          },
        ],
        foreignKeys: [cascadeTo('accountId', 'account')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'dashboard_session',
        columns: [
          varchar('tokenHash', 64, { isPrimary: true }),
          ref('accountId'),
          varchar('csrfSecret', 64),
          timestamp('createdAt'),
          timestamp('expiresAt'),
        ],
        indices: [{ columnNames: ['accountId'] }],
        foreignKeys: [cascadeTo('accountId', 'account')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'form',
        columns: [
          id(),
          ref('accountId'),
          varchar('name', 200),
          { name: 'fields', type: 'json' },
          { name: 'domainVerification', type: 'boolean', default: 0 },
          varchar('apiKeyHash', 64),
          varchar('apiKeyEncrypted', 255),
          varchar('apiKeyPrefix', 16),
          timestamp('createdAt'),
          timestamp('updatedAt'),
        ],
        indices: [
          { columnNames: ['accountId'] },
          {
            name: 'UQ_form_api_key_hash',
            columnNames: ['apiKeyHash'],
            isUnique: true,
          },
        ],
        foreignKeys: [cascadeTo('accountId', 'account')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'form_domain',
        columns: [
          id(),
          ref('formId'),
          varchar('domain', 253),
          varchar('token', 64),
          varchar('status', 16, { default: "'pending'" }),
          timestamp('verifiedAt', true),
          timestamp('lastCheckedAt', true),
          varchar('lastError', 500, { isNullable: true }),
          timestamp('createdAt'),
        ],
        uniques: [
          {
            name: 'UQ_form_domain_form_domain',
            columnNames: ['formId', 'domain'],
          },
        ],
        foreignKeys: [cascadeTo('formId', 'form')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'submission',
        columns: [
          id(),
          ref('formId'),
          { name: 'data', type: 'json' },
          varchar('ip', 45, { isNullable: true }),
          varchar('userAgent', 512, { isNullable: true }),
          varchar('origin', 1024, { isNullable: true }),
          timestamp('createdAt'),
        ],
        // Keyset pagination (newest first) reads this index in order.
        indices: [
          {
            name: 'IDX_submission_form_created_id',
            columnNames: ['formId', 'createdAt', 'id'],
          },
        ],
        foreignKeys: [cascadeTo('formId', 'form')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'submission',
      'form_domain',
      'form',
      'dashboard_session',
      'account_api_key',
      'account',
    ]) {
      await queryRunner.dropTable(table);
    }
  }
}

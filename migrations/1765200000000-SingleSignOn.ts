import {
  MigrationInterface,
  QueryRunner,
  Table,
  type TableColumnOptions,
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
  isNullable = false,
): TableColumnOptions => ({
  name,
  type: 'varchar',
  length: String(length),
  isNullable,
});

const accountKey = {
  columnNames: ['accountId'],
  referencedTableName: 'account',
  referencedColumnNames: ['id'],
  onDelete: 'CASCADE',
  onUpdate: 'NO ACTION',
};

/**
 * Single sign-on through an account's OpenID provider: its settings (the client secret
 * sealed), the domains it claims (proven by DNS TXT before they route anyone), and the
 * sign-ins under way (state, nonce and PKCE verifier kept server-side, used once).
 */
export class SingleSignOn1765200000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'sso_settings',
        columns: [
          { ...varchar('accountId', 32), isPrimary: true },
          varchar('issuerUrl', 500),
          varchar('clientId', 255),
          varchar('clientSecretEncrypted', 1000),
          varchar('defaultRole', 16),
          { name: 'requireSso', type: 'boolean', default: 0 },
          timestamp('createdAt'),
          timestamp('updatedAt'),
        ],
        foreignKeys: [accountKey],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'sso_domain',
        columns: [
          { ...varchar('id', 32), isPrimary: true },
          varchar('accountId', 32),
          varchar('domain', 253),
          varchar('token', 64),
          varchar('status', 16),
          timestamp('verifiedAt', true),
          timestamp('lastCheckedAt', true),
          varchar('lastError', 500, true),
          timestamp('createdAt'),
        ],
        indices: [
          {
            name: 'UQ_sso_domain_account_domain',
            columnNames: ['accountId', 'domain'],
            isUnique: true,
          },
          { name: 'IDX_sso_domain_domain', columnNames: ['domain'] },
        ],
        foreignKeys: [accountKey],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'sso_attempt',
        columns: [
          { ...varchar('stateHash', 64), isPrimary: true },
          varchar('accountId', 32),
          varchar('nonce', 128),
          varchar('codeVerifierEncrypted', 500),
          varchar('issuerUrl', 500),
          timestamp('createdAt'),
          timestamp('expiresAt'),
        ],
        indices: [
          { name: 'IDX_sso_attempt_expires', columnNames: ['expiresAt'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('sso_attempt');
    await queryRunner.dropTable('sso_domain');
    await queryRunner.dropTable('sso_settings');
  }
}

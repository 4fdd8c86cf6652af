import {
  MigrationInterface,
  QueryRunner,
  Table,
  type TableColumnOptions,
  type TableForeignKeyOptions,
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
const cascadeTo = (column: string, table: string): TableForeignKeyOptions => ({
  columnNames: [column],
  referencedTableName: table,
  referencedColumnNames: ['id'],
  onDelete: 'CASCADE',
  onUpdate: 'NO ACTION',
});

/**
 * Second factors: a user's TOTP authenticator (secret sealed), recovery codes (hashed),
 * passkeys, the WebAuthn challenges waiting for an answer, and each account's policy
 * "members must use a second factor".
 */
export class SecondFactors1765100000001 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'user_totp',
        columns: [
          varchar('userId', 32, { isPrimary: true }),
          varchar('secretSealed', 255),
          timestamp('confirmedAt', true),
          { name: 'lastStep', type: 'integer', isNullable: true },
          timestamp('createdAt'),
        ],
        foreignKeys: [cascadeTo('userId', 'user')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'recovery_code',
        columns: [
          varchar('id', 32, { isPrimary: true }),
          varchar('userId', 32),
          varchar('codeHash', 64),
          timestamp('usedAt', true),
          timestamp('createdAt'),
        ],
        indices: [{ name: 'IDX_recovery_code_user', columnNames: ['userId'] }],
        foreignKeys: [cascadeTo('userId', 'user')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'passkey',
        columns: [
          varchar('id', 32, { isPrimary: true }),
          varchar('userId', 32),
          varchar('credentialId', 255),
          { name: 'publicKey', type: 'text' },
          { name: 'counter', type: 'bigint' },
          varchar('transports', 255, { default: "''" }),
          varchar('name', 100),
          timestamp('createdAt'),
          timestamp('lastUsedAt', true),
        ],
        indices: [
          { name: 'IDX_passkey_user', columnNames: ['userId'] },
          {
            name: 'UQ_passkey_credential',
            columnNames: ['credentialId'],
            isUnique: true,
          },
        ],
        foreignKeys: [cascadeTo('userId', 'user')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'webauthn_challenge',
        columns: [
          varchar('challengeHash', 64, { isPrimary: true }),
          varchar('purpose', 16),
          varchar('userId', 32, { isNullable: true }),
          timestamp('expiresAt'),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'account_security_policy',
        columns: [
          varchar('accountId', 32, { isPrimary: true }),
          { name: 'requireSecondFactor', type: 'boolean', default: 0 },
          timestamp('updatedAt'),
        ],
        foreignKeys: [cascadeTo('accountId', 'account')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'account_security_policy',
      'webauthn_challenge',
      'passkey',
      'recovery_code',
      'user_totp',
    ]) {
      await queryRunner.dropTable(table);
    }
  }
}

import {
  MigrationInterface,
  QueryRunner,
  Table,
  TableColumn,
  type TableColumnOptions,
} from 'typeorm';

const timestamp = (name: string, isNullable = false): TableColumnOptions => ({
  name,
  type: 'datetime',
  precision: 3,
  isNullable,
});

/**
 * Invitations to join an account: one row per invitation, its link's token stored hashed.
 * And when each user last signed in, for the members list (null: not since this release).
 */
export class Invitations1765010000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'invitation',
        columns: [
          { name: 'id', type: 'varchar', length: '32', isPrimary: true },
          { name: 'accountId', type: 'varchar', length: '32' },
          { name: 'email', type: 'varchar', length: '254' },
          { name: 'role', type: 'varchar', length: '16' },
          { name: 'tokenHash', type: 'varchar', length: '64' },
          {
            name: 'invitedByUserId',
            type: 'varchar',
            length: '32',
            isNullable: true,
          },
          { name: 'invitedByLabel', type: 'varchar', length: '254' },
          timestamp('expiresAt'),
          timestamp('createdAt'),
          timestamp('acceptedAt', true),
          timestamp('revokedAt', true),
        ],
        indices: [
          {
            name: 'UQ_invitation_token_hash',
            columnNames: ['tokenHash'],
            isUnique: true,
          },
          {
            name: 'IDX_invitation_account_email',
            columnNames: ['accountId', 'email'],
          },
        ],
        foreignKeys: [
          {
            columnNames: ['accountId'],
            referencedTableName: 'account',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
            onUpdate: 'NO ACTION',
          },
          {
            columnNames: ['invitedByUserId'],
            referencedTableName: 'user',
            referencedColumnNames: ['id'],
            onDelete: 'SET NULL',
            onUpdate: 'NO ACTION',
          },
        ],
      }),
    );
    await queryRunner.addColumn(
      'user',
      new TableColumn(timestamp('lastSignInAt', true)),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('user', 'lastSignInAt');
    await queryRunner.dropTable('invitation');
  }
}

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
 * Email notifications: a form's recipient list, and per account the addresses that were
 * sent a confirmation link (double opt-in) and whether they confirmed it.
 */
export class EmailRecipients1764200000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'form',
      new TableColumn({ name: 'notifyEmails', type: 'json', isNullable: true }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'email_recipient',
        columns: [
          { name: 'id', type: 'varchar', length: '32', isPrimary: true },
          { name: 'accountId', type: 'varchar', length: '32' },
          { name: 'address', type: 'varchar', length: '254' },
          {
            name: 'status',
            type: 'varchar',
            length: '16',
            default: "'pending'",
          },
          {
            name: 'tokenHash',
            type: 'varchar',
            length: '64',
            isNullable: true,
          },
          timestamp('tokenExpiresAt', true),
          timestamp('confirmedAt', true),
          timestamp('createdAt'),
        ],
        uniques: [
          {
            name: 'UQ_email_recipient_account_address',
            columnNames: ['accountId', 'address'],
          },
        ],
        indices: [
          {
            name: 'UQ_email_recipient_token_hash',
            columnNames: ['tokenHash'],
            isUnique: true,
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
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('email_recipient');
    await queryRunner.dropColumn('form', 'notifyEmails');
  }
}

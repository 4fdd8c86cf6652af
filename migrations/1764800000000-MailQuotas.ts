import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * Caps on confirmation mail reserved atomically: one counter row per account and per
 * address (across accounts), taken by a conditional UPDATE.
 */
export class MailQuotas1764800000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'mail_quota',
        columns: [
          { name: 'subject', type: 'varchar', length: '300', isPrimary: true },
          { name: 'day', type: 'varchar', length: '10', default: "''" },
          { name: 'usedOnDay', type: 'integer', default: 0 },
          { name: 'unanswered', type: 'integer', default: 0 },
          {
            name: 'lastSentAt',
            type: 'datetime',
            precision: 3,
            isNullable: true,
          },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('mail_quota');
  }
}

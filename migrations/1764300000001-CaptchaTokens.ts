import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * CAPTCHA answers accepted once (a unique row each, across instances), and per form
 * and day the posts turned away unstored (honeypot, CAPTCHA) for the dashboard.
 */
export class CaptchaTokens1764300000001 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'used_captcha_token',
        columns: [
          { name: 'id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'expiresAt', type: 'datetime', precision: 3 },
          { name: 'claim', type: 'varchar', length: '32' },
        ],
        indices: [
          {
            name: 'IDX_used_captcha_token_expires',
            columnNames: ['expiresAt'],
          },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'form_spam_stat',
        columns: [
          { name: 'formId', type: 'varchar', length: '32', isPrimary: true },
          { name: 'day', type: 'varchar', length: '10', isPrimary: true },
          { name: 'honeypot', type: 'integer', default: 0 },
          { name: 'captcha', type: 'integer', default: 0 },
        ],
        foreignKeys: [
          {
            columnNames: ['formId'],
            referencedTableName: 'form',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
            onUpdate: 'NO ACTION',
          },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('form_spam_stat');
    await queryRunner.dropTable('used_captcha_token');
  }
}

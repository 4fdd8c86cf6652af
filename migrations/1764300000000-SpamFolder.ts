import {
  MigrationInterface,
  QueryRunner,
  TableColumn,
  TableIndex,
} from 'typeorm';

const OLD_INDEX = 'IDX_submission_form_created_id';
const NEW_INDEX = 'IDX_submission_form_spam_created_id';

/**
 * Spam protection: a form's CAPTCHA (with its encrypted secret) and content rules, and
 * the spam folder — a submission's `spam` flag and reasons, with the keyset index
 * extended by the flag so that clean submissions and spam are each one ordered range.
 */
export class SpamFolder1764300000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('form', [
      new TableColumn({ name: 'captcha', type: 'json', isNullable: true }),
      new TableColumn({
        name: 'captchaSecretEncrypted',
        type: 'varchar',
        length: '1024',
        isNullable: true,
      }),
      new TableColumn({ name: 'spamFilter', type: 'json', isNullable: true }),
    ]);
    await queryRunner.addColumns('submission', [
      new TableColumn({
        name: 'spam',
        type: 'boolean',
        default: 0,
        isNullable: false,
      }),
      new TableColumn({ name: 'spamReasons', type: 'json', isNullable: true }),
    ]);
    // The new index first: MySQL needs an index led by formId for the foreign key at
    // every moment.
    await queryRunner.createIndex(
      'submission',
      new TableIndex({
        name: NEW_INDEX,
        columnNames: ['formId', 'spam', 'createdAt', 'id'],
      }),
    );
    await queryRunner.dropIndex('submission', OLD_INDEX);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex(
      'submission',
      new TableIndex({
        name: OLD_INDEX,
        columnNames: ['formId', 'createdAt', 'id'],
      }),
    );
    await queryRunner.dropIndex('submission', NEW_INDEX);
    await queryRunner.dropColumn('submission', 'spamReasons');
    await queryRunner.dropColumn('submission', 'spam');
    await queryRunner.dropColumn('form', 'spamFilter');
    await queryRunner.dropColumn('form', 'captchaSecretEncrypted');
    await queryRunner.dropColumn('form', 'captcha');
  }
}

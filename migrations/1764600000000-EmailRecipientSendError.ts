import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/** Why the last confirmation mail to an address could not be sent, and when. */
export class EmailRecipientSendError1764600000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('email_recipient', [
      new TableColumn({
        name: 'lastError',
        type: 'varchar',
        length: '500',
        isNullable: true,
      }),
      new TableColumn({
        name: 'lastErrorAt',
        type: 'datetime',
        precision: 3,
        isNullable: true,
      }),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('email_recipient', 'lastErrorAt');
    await queryRunner.dropColumn('email_recipient', 'lastError');
  }
}

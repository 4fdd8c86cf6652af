import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/** What a browser posting a form natively sees after a success: a redirect or a message. */
export class FormRedirect1764000000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('form', [
      new TableColumn({
        name: 'redirectUrl',
        type: 'varchar',
        length: '2048',
        isNullable: true,
      }),
      new TableColumn({
        name: 'successMessage',
        type: 'varchar',
        length: '500',
        isNullable: true,
      }),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('form', 'successMessage');
    await queryRunner.dropColumn('form', 'redirectUrl');
  }
}

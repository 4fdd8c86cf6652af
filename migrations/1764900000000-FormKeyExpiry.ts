import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/** When a form's key stops working (a key made by an expiring key); null for never. */
export class FormKeyExpiry1764900000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'form',
      new TableColumn({
        name: 'apiKeyExpiresAt',
        type: 'datetime',
        precision: 3,
        isNullable: true,
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('form', 'apiKeyExpiresAt');
  }
}

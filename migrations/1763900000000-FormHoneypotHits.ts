import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/** A per-form count of posts the honeypot turned away (the posts themselves are never kept). */
export class FormHoneypotHits1763900000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'form',
      new TableColumn({
        name: 'honeypotHits',
        type: 'integer',
        default: 0,
        isNullable: false,
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('form', 'honeypotHits');
  }
}

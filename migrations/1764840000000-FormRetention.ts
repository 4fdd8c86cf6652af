import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/** How long a form keeps its submissions: null keeps them, else 1–3650 days. */
export class FormRetention1764840000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'form',
      new TableColumn({
        name: 'retentionDays',
        type: 'integer',
        isNullable: true,
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('form', 'retentionDays');
  }
}

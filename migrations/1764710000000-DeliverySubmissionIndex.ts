import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * Deliveries found by their submission: deleting submissions (one, a range, an erasure,
 * retention) deletes their deliveries in the same transaction.
 */
export class DeliverySubmissionIndex1764710000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex(
      'delivery',
      new TableIndex({
        name: 'IDX_delivery_submission',
        columnNames: ['submissionId'],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('delivery', 'IDX_delivery_submission');
  }
}

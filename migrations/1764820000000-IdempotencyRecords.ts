import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/** Idempotency-Key records: the first request's fingerprint and its 2xx answer, 24 hours. */
export class IdempotencyRecords1764820000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'idempotency_record',
        columns: [
          { name: 'id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'fingerprint', type: 'varchar', length: '64' },
          { name: 'status', type: 'integer', isNullable: true },
          { name: 'response', type: 'json', isNullable: true },
          { name: 'createdAt', type: 'datetime', precision: 3 },
          { name: 'expiresAt', type: 'datetime', precision: 3 },
        ],
        indices: [
          {
            name: 'IDX_idempotency_record_expires',
            columnNames: ['expiresAt'],
          },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('idempotency_record');
  }
}

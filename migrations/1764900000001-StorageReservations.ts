import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * The bytes each account's uploads in progress have reserved of MAX_STORAGE_PER_ACCOUNT,
 * taken by a conditional UPDATE so that racing uploads never pass the cap.
 */
export class StorageReservations1764900000001 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'storage_reservation',
        columns: [
          { name: 'accountId', type: 'varchar', length: '32', isPrimary: true },
          { name: 'reservedBytes', type: 'bigint', default: 0 },
          {
            name: 'updatedAt',
            type: 'datetime',
            precision: 3,
            isNullable: true,
          },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('storage_reservation');
  }
}

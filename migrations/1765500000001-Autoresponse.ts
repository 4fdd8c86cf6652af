import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';

/**
 * A form's autoresponse (the owner's mail back to whoever submitted), and the addresses
 * that asked an account to stop sending them, kept as hashes.
 */
export class Autoresponse1765500000001 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'form',
      new TableColumn({ name: 'autoresponse', type: 'json', isNullable: true }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'autoresponse_unsubscribe',
        columns: [
          {
            name: 'accountId',
            type: 'varchar',
            length: '32',
            isPrimary: true,
          },
          {
            name: 'addressHash',
            type: 'varchar',
            length: '64',
            isPrimary: true,
          },
          { name: 'createdAt', type: 'datetime', precision: 3 },
        ],
        foreignKeys: [
          {
            columnNames: ['accountId'],
            referencedTableName: 'account',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
            onUpdate: 'NO ACTION',
          },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('autoresponse_unsubscribe');
    await queryRunner.dropColumn('form', 'autoresponse');
  }
}

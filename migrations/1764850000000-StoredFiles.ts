import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/** Uploaded files: one row per file of a submission; the bytes live in the file storage. */
export class StoredFiles1764850000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'stored_file',
        columns: [
          { name: 'id', type: 'varchar', length: '32', isPrimary: true },
          { name: 'submissionId', type: 'varchar', length: '32' },
          { name: 'formId', type: 'varchar', length: '32' },
          { name: 'accountId', type: 'varchar', length: '32' },
          { name: 'fieldId', type: 'varchar', length: '64' },
          { name: 'name', type: 'varchar', length: '1024' },
          { name: 'size', type: 'integer' },
          { name: 'type', type: 'varchar', length: '127' },
          { name: 'sha256', type: 'varchar', length: '64' },
          { name: 'createdAt', type: 'datetime', precision: 3 },
        ],
        indices: [
          {
            name: 'IDX_stored_file_submission',
            columnNames: ['submissionId'],
          },
          { name: 'IDX_stored_file_account', columnNames: ['accountId'] },
        ],
        foreignKeys: [
          {
            columnNames: ['formId'],
            referencedTableName: 'form',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
            onUpdate: 'NO ACTION',
          },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('stored_file');
  }
}

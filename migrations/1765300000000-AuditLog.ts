import {
  MigrationInterface,
  QueryRunner,
  Table,
  type TableColumnOptions,
} from 'typeorm';

const id = (name: string, isNullable = false): TableColumnOptions => ({
  name,
  type: 'varchar',
  length: '32',
  isNullable,
});

/**
 * The audit log (docs/audit.md): one row per recorded change, chained per account by hash,
 * and each account's chain head (locked by the transaction recording an event) and anchor.
 */
export class AuditLog1765300000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'audit_event',
        columns: [
          { ...id('id'), isPrimary: true },
          id('accountId'),
          { name: 'seq', type: 'integer' },
          { name: 'at', type: 'datetime', precision: 3 },
          { name: 'actorType', type: 'varchar', length: '16' },
          { name: 'actorId', type: 'varchar', length: '64', isNullable: true },
          { name: 'actorLabel', type: 'varchar', length: '254' },
          { name: 'action', type: 'varchar', length: '64' },
          { name: 'targetType', type: 'varchar', length: '32' },
          { name: 'targetId', type: 'varchar', length: '64', isNullable: true },
          { name: 'details', type: 'text' },
          { name: 'ip', type: 'varchar', length: '64', isNullable: true },
          {
            name: 'userAgent',
            type: 'varchar',
            length: '512',
            isNullable: true,
          },
          { name: 'hash', type: 'varchar', length: '64' },
        ],
        indices: [
          {
            name: 'UQ_audit_event_account_seq',
            columnNames: ['accountId', 'seq'],
            isUnique: true,
          },
          {
            name: 'IDX_audit_event_account_id',
            columnNames: ['accountId', 'id'],
          },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'audit_chain',
        columns: [
          { ...id('accountId'), isPrimary: true },
          { name: 'headSeq', type: 'integer' },
          { name: 'headHash', type: 'varchar', length: '64' },
          { name: 'anchorSeq', type: 'integer' },
          { name: 'anchorHash', type: 'varchar', length: '64' },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('audit_chain');
    await queryRunner.dropTable('audit_event');
  }
}

import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * The events of changes under way in batches (docs/audit.md#changes-in-batches): a bulk
 * delete's or an erasure's one event, kept current batch by batch until the change ends.
 */
export class AuditOpenEvents1765600000043 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'audit_open_event',
        columns: [
          { name: 'id', type: 'varchar', length: '32', isPrimary: true },
          { name: 'accountId', type: 'varchar', length: '32' },
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
          { name: 'openedAt', type: 'datetime', precision: 3 },
          { name: 'touchedAt', type: 'datetime', precision: 3 },
        ],
        indices: [
          {
            name: 'IDX_audit_open_event_touched',
            columnNames: ['touchedAt'],
          },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('audit_open_event');
  }
}

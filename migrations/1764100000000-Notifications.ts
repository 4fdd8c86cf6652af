import {
  MigrationInterface,
  QueryRunner,
  Table,
  TableColumnOptions,
} from 'typeorm';

// Webhooks, and the notification outbox: one delivery row per target and event, written
// with its submission, and one attempt row per try. Table API, so it runs on MySQL/MariaDB
// and SQLite alike.
const id = (name = 'id', isNullable = false): TableColumnOptions => ({
  name,
  type: 'varchar',
  length: '32',
  isPrimary: name === 'id',
  isNullable,
});
const timestamp = (name: string, isNullable = false): TableColumnOptions => ({
  name,
  type: 'datetime',
  precision: 3,
  isNullable,
});
const varchar = (
  name: string,
  length: number,
  extra: Partial<TableColumnOptions> = {},
) =>
  ({
    name,
    type: 'varchar',
    length: String(length),
    ...extra,
  }) as TableColumnOptions;
const integer = (
  name: string,
  extra: Partial<TableColumnOptions> = {},
): TableColumnOptions => ({ name, type: 'integer', ...extra });
const cascadeTo = (column: string, table: string) => ({
  columnNames: [column],
  referencedTableName: table,
  referencedColumnNames: ['id'],
  onDelete: 'CASCADE',
  onUpdate: 'NO ACTION',
});

export class Notifications1764100000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'webhook',
        columns: [
          id(),
          id('formId'),
          varchar('url', 2048),
          varchar('description', 500, { isNullable: true }),
          { name: 'enabled', type: 'boolean', default: 1 },
          varchar('disabledReason', 500, { isNullable: true }),
          varchar('secretEncrypted', 255),
          varchar('previousSecretEncrypted', 255, { isNullable: true }),
          timestamp('previousSecretExpiresAt', true),
          timestamp('failingSince', true),
          timestamp('createdAt'),
          timestamp('updatedAt'),
        ],
        indices: [{ columnNames: ['formId'] }],
        foreignKeys: [cascadeTo('formId', 'form')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'delivery',
        columns: [
          id(),
          id('formId'),
          id('submissionId', true),
          varchar('channel', 16),
          varchar('target', 254),
          varchar('event', 32),
          { name: 'payload', type: 'text', isNullable: true },
          varchar('status', 16, { default: "'pending'" }),
          integer('attempts', { default: 0 }),
          integer('scheduleStart', { default: 0 }),
          timestamp('nextAttemptAt', true),
          varchar('leaseOwner', 64, { isNullable: true }),
          timestamp('leaseUntil', true),
          integer('lastStatusCode', { isNullable: true }),
          varchar('lastError', 500, { isNullable: true }),
          integer('lastDurationMs', { isNullable: true }),
          timestamp('createdAt'),
          timestamp('deliveredAt', true),
        ],
        indices: [
          // The worker's claim: due deliveries in order.
          {
            name: 'IDX_delivery_due',
            columnNames: ['status', 'nextAttemptAt'],
          },
          // Delivery logs, newest first: per form, and per webhook (its id is the target).
          { name: 'IDX_delivery_form_id', columnNames: ['formId', 'id'] },
          { name: 'IDX_delivery_target_id', columnNames: ['target', 'id'] },
        ],
        foreignKeys: [cascadeTo('formId', 'form')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'delivery_attempt',
        columns: [
          id(),
          id('deliveryId'),
          timestamp('at'),
          integer('statusCode', { isNullable: true }),
          varchar('error', 500, { isNullable: true }),
          integer('durationMs'),
        ],
        indices: [
          {
            name: 'IDX_delivery_attempt_delivery_at',
            columnNames: ['deliveryId', 'at'],
          },
        ],
        foreignKeys: [cascadeTo('deliveryId', 'delivery')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['delivery_attempt', 'delivery', 'webhook']) {
      await queryRunner.dropTable(table);
    }
  }
}

import {
  MigrationInterface,
  QueryRunner,
  Table,
  TableColumn,
  TableIndex,
} from 'typeorm';

// The outbox becomes one event row per commit batch (the submissions it notifies about),
// which the worker expands into the delivery rows. Deliveries gain their account (the
// worker shares itself fairly between accounts) and:
// - UQ_delivery_submission_target: one delivery per submission, channel and target, so an
//   event expanded twice (a crash between expansion and deletion, a repeated request)
//   adds nothing;
// - IDX_delivery_claim (status, accountId, target, nextAttemptAt), which a fair claim walks
//   per account and target, in place of IDX_delivery_due (status, nextAttemptAt).
// Table API, so it runs on MySQL/MariaDB and SQLite alike.
export class OutboxEvents1764500000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'outbox_event',
        columns: [
          { name: 'id', type: 'varchar', length: '32', isPrimary: true },
          { name: 'submissions', type: 'json' },
          { name: 'createdAt', type: 'datetime', precision: 3 },
        ],
      }),
    );
    await queryRunner.addColumn(
      'delivery',
      new TableColumn({
        name: 'accountId',
        type: 'varchar',
        length: '32',
        isNullable: true,
      }),
    );
    await queryRunner.query(
      'UPDATE delivery SET accountId = (SELECT form.accountId FROM form WHERE form.id = delivery.formId)',
    );
    await queryRunner.changeColumn(
      'delivery',
      'accountId',
      new TableColumn({
        name: 'accountId',
        type: 'varchar',
        length: '32',
        isNullable: false,
      }),
    );
    await queryRunner.dropIndex('delivery', 'IDX_delivery_due');
    await queryRunner.createIndex(
      'delivery',
      new TableIndex({
        name: 'IDX_delivery_claim',
        columnNames: ['status', 'accountId', 'target', 'nextAttemptAt'],
      }),
    );
    await queryRunner.createIndex(
      'delivery',
      new TableIndex({
        name: 'UQ_delivery_submission_target',
        columnNames: ['submissionId', 'channel', 'target'],
        isUnique: true,
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('delivery', 'UQ_delivery_submission_target');
    await queryRunner.dropIndex('delivery', 'IDX_delivery_claim');
    await queryRunner.createIndex(
      'delivery',
      new TableIndex({
        name: 'IDX_delivery_due',
        columnNames: ['status', 'nextAttemptAt'],
      }),
    );
    await queryRunner.dropColumn('delivery', 'accountId');
    await queryRunner.dropTable('outbox_event');
  }
}

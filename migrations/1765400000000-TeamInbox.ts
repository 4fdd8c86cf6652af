import {
  MigrationInterface,
  QueryRunner,
  Table,
  TableColumn,
  TableForeignKey,
  TableIndex,
  type TableColumnOptions,
} from 'typeorm';

const id = (name: string, isNullable = false): TableColumnOptions => ({
  name,
  type: 'varchar',
  length: '32',
  isNullable,
});

const timestamp = (name: string, isNullable = false): TableColumnOptions => ({
  name,
  type: 'datetime',
  precision: 3,
  isNullable,
});

const counter = (name: string): TableColumnOptions => ({
  name,
  type: 'integer',
  default: 0,
  isNullable: false,
});

const cascade = (
  columnNames: string[],
  referencedTableName: string,
  onDelete = 'CASCADE',
) => ({
  columnNames,
  referencedTableName,
  referencedColumnNames: ['id'],
  onDelete,
  onUpdate: 'NO ACTION',
});

/**
 * The team inbox (DESIGN 20): a submission's status (rows from before count as `open`) and
 * assignee, the account's labels and the submissions they are on, members' notes, each
 * form's counters and per-day counts (filled here from the rows), "Mail me when I am
 * assigned", and the full-text index the worker keeps (SQLite FTS5, InnoDB FULLTEXT) —
 * raw tables, outside the entities: docs/inbox.md.
 */
export class TeamInbox1765400000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    const sqlite = queryRunner.connection.options.type === 'better-sqlite3';
    const q = (name: string) => (sqlite ? `"${name}"` : '`' + name + '`');
    await queryRunner.addColumns('submission', [
      new TableColumn({
        name: 'status',
        type: 'varchar',
        length: '8',
        default: "'new'",
        isNullable: false,
      }),
      new TableColumn(id('assigneeId', true)),
    ]);
    await queryRunner.query(
      `UPDATE ${q('submission')} SET ${q('status')} = 'open'`,
    );
    await queryRunner.createIndices('submission', [
      new TableIndex({
        name: 'IDX_submission_form_spam_status_created_id',
        columnNames: ['formId', 'spam', 'status', 'createdAt', 'id'],
      }),
      new TableIndex({
        name: 'IDX_submission_assignee',
        columnNames: ['assigneeId'],
      }),
    ]);
    await queryRunner.createForeignKey(
      'submission',
      new TableForeignKey(cascade(['assigneeId'], 'user', 'SET NULL')),
    );
    await queryRunner.addColumn(
      'user',
      new TableColumn({
        name: 'mailOnAssign',
        type: 'boolean',
        default: 1,
        isNullable: false,
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'label',
        columns: [
          { ...id('id'), isPrimary: true },
          id('accountId'),
          { name: 'name', type: 'varchar', length: '40' },
          { name: 'color', type: 'varchar', length: '16' },
          timestamp('createdAt'),
        ],
        indices: [
          {
            name: 'UQ_label_account_name',
            columnNames: ['accountId', 'name'],
            isUnique: true,
          },
        ],
        foreignKeys: [cascade(['accountId'], 'account')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'submission_label',
        columns: [
          { ...id('submissionId'), isPrimary: true },
          { ...id('labelId'), isPrimary: true },
        ],
        indices: [
          { name: 'IDX_submission_label_label', columnNames: ['labelId'] },
        ],
        foreignKeys: [
          cascade(['submissionId'], 'submission'),
          cascade(['labelId'], 'label'),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'submission_note',
        columns: [
          { ...id('id'), isPrimary: true },
          id('submissionId'),
          id('authorUserId', true),
          {
            name: 'authorKey',
            type: 'varchar',
            length: '40',
            isNullable: true,
          },
          {
            name: 'authorLabel',
            type: 'varchar',
            length: '254',
            isNullable: true,
          },
          { name: 'text', type: 'text' },
          timestamp('createdAt'),
          timestamp('updatedAt'),
        ],
        indices: [
          {
            name: 'IDX_submission_note_submission_created',
            columnNames: ['submissionId', 'createdAt'],
          },
        ],
        foreignKeys: [
          cascade(['submissionId'], 'submission'),
          cascade(['authorUserId'], 'user', 'SET NULL'),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'form_counter',
        columns: [
          { ...id('formId'), isPrimary: true },
          counter('total'),
          counter('spam'),
          counter('newCount'),
          counter('openCount'),
          counter('closedCount'),
          timestamp('lastAt', true),
        ],
        foreignKeys: [cascade(['formId'], 'form')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'form_daily_count',
        columns: [
          { ...id('formId'), isPrimary: true },
          { name: 'day', type: 'varchar', length: '10', isPrimary: true },
          counter('count'),
        ],
        foreignKeys: [cascade(['formId'], 'form')],
      }),
    );
    await this.createSearchIndex(queryRunner, sqlite);
    // Every row is `open` now: the counters from one pass over the rows.
    const spam = q('spam');
    await queryRunner.query(
      `INSERT INTO ${q('form_counter')} (${q('formId')}, ${q('total')}, ${spam}, ${q('newCount')}, ${q('openCount')}, ${q('closedCount')}, ${q('lastAt')}) ` +
        `SELECT ${q('formId')}, SUM(CASE WHEN ${spam} = 0 THEN 1 ELSE 0 END), SUM(CASE WHEN ${spam} = 0 THEN 0 ELSE 1 END), 0, ` +
        `SUM(CASE WHEN ${spam} = 0 THEN 1 ELSE 0 END), 0, MAX(${q('createdAt')}) FROM ${q('submission')} GROUP BY ${q('formId')}`,
    );
    const day = sqlite
      ? `substr("createdAt", 1, 10)`
      : "DATE_FORMAT(`createdAt`, '%Y-%m-%d')";
    await queryRunner.query(
      `INSERT INTO ${q('form_daily_count')} (${q('formId')}, ${q('day')}, ${q('count')}) ` +
        `SELECT ${q('formId')}, ${day}, COUNT(*) FROM ${q('submission')} WHERE ${spam} = 0 GROUP BY ${q('formId')}, ${day}`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const sqlite = queryRunner.connection.options.type === 'better-sqlite3';
    if (sqlite) {
      await queryRunner.query('DROP TRIGGER IF EXISTS "submission_search_ad"');
      await queryRunner.query('DROP TABLE IF EXISTS "submission_fts"');
    }
    await queryRunner.query(
      sqlite
        ? 'DROP TABLE IF EXISTS "submission_search"'
        : 'DROP TABLE IF EXISTS `submission_search`',
    );
    await queryRunner.query(
      sqlite
        ? 'DROP TABLE IF EXISTS "search_index_state"'
        : 'DROP TABLE IF EXISTS `search_index_state`',
    );
    await queryRunner.dropTable('form_daily_count');
    await queryRunner.dropTable('form_counter');
    await queryRunner.dropTable('submission_note');
    await queryRunner.dropTable('submission_label');
    await queryRunner.dropTable('label');
    await queryRunner.dropColumn('user', 'mailOnAssign');
    const table = await queryRunner.getTable('submission');
    const fk = table?.foreignKeys.find((key) =>
      key.columnNames.includes('assigneeId'),
    );
    if (fk) await queryRunner.dropForeignKey('submission', fk);
    await queryRunner.dropIndex('submission', 'IDX_submission_assignee');
    await queryRunner.dropIndex(
      'submission',
      'IDX_submission_form_spam_status_created_id',
    );
    await queryRunner.dropColumn('submission', 'assigneeId');
    await queryRunner.dropColumn('submission', 'status');
  }

  /**
   * SQLite: a row per indexed submission (its integer key is the FTS5 row's), the
   * contentless FTS5 table, and a trigger that forgets a row's words when its key goes
   * (with the submission, by the foreign key). MySQL/MariaDB: the text beside its
   * submission with an InnoDB FULLTEXT index. Both: how far the worker has indexed.
   */
  private async createSearchIndex(
    queryRunner: QueryRunner,
    sqlite: boolean,
  ): Promise<void> {
    if (sqlite) {
      await queryRunner.query(
        'CREATE TABLE "submission_search" ("seq" integer PRIMARY KEY, "submissionId" varchar(32) NOT NULL UNIQUE ' +
          'REFERENCES "submission" ("id") ON DELETE CASCADE)',
      );
      await queryRunner.query(
        `CREATE VIRTUAL TABLE "submission_fts" USING fts5("body", content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`,
      );
      await queryRunner.query(
        'CREATE TRIGGER "submission_search_ad" AFTER DELETE ON "submission_search" ' +
          'BEGIN DELETE FROM "submission_fts" WHERE "rowid" = old."seq"; END',
      );
      await queryRunner.query(
        'CREATE TABLE "search_index_state" ("name" varchar(32) PRIMARY KEY NOT NULL, "lastId" varchar(32) NOT NULL)',
      );
      return;
    }
    await queryRunner.query(
      'CREATE TABLE `submission_search` (`submissionId` varchar(32) NOT NULL PRIMARY KEY, ' +
        '`body` mediumtext CHARACTER SET utf8mb4 NOT NULL, FULLTEXT KEY `FT_submission_search_body` (`body`), ' +
        'CONSTRAINT `FK_submission_search_submission` FOREIGN KEY (`submissionId`) REFERENCES `submission` (`id`) ON DELETE CASCADE) ENGINE=InnoDB',
    );
    await queryRunner.query(
      'CREATE TABLE `search_index_state` (`name` varchar(32) NOT NULL PRIMARY KEY, `lastId` varchar(32) NOT NULL) ENGINE=InnoDB',
    );
  }
}

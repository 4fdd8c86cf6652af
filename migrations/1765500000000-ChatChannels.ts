import {
  MigrationInterface,
  QueryRunner,
  Table,
  type TableColumnOptions,
} from 'typeorm';

const timestamp = (name: string, isNullable = false): TableColumnOptions => ({
  name,
  type: 'datetime',
  precision: 3,
  isNullable,
});

/** Chat channels (Slack, Discord, Teams, Telegram) told of a form's submissions. */
export class ChatChannels1765500000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'chat_channel',
        columns: [
          { name: 'id', type: 'varchar', length: '32', isPrimary: true },
          { name: 'formId', type: 'varchar', length: '32' },
          { name: 'kind', type: 'varchar', length: '16' },
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'target', type: 'varchar', length: '300' },
          { name: 'secretEncrypted', type: 'varchar', length: '4096' },
          { name: 'enabled', type: 'boolean', default: 1 },
          {
            name: 'disabledReason',
            type: 'varchar',
            length: '500',
            isNullable: true,
          },
          timestamp('createdAt'),
          timestamp('lastDeliveryAt', true),
        ],
        indices: [{ name: 'IDX_chat_channel_form', columnNames: ['formId'] }],
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
    await queryRunner.dropTable('chat_channel');
  }
}

import {
  MigrationInterface,
  QueryRunner,
  TableColumn,
  TableIndex,
} from 'typeorm';

const timestamp = (name: string): TableColumn =>
  new TableColumn({ name, type: 'datetime', precision: 3, isNullable: true });

/**
 * Key lifecycle: when each key was last used, a form's previous key kept valid for a
 * grace period after a rotation, and account keys that are read-only or expire.
 */
export class KeyLifecycle1764700000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('form', [
      timestamp('apiKeyLastUsedAt'),
      new TableColumn({
        name: 'previousApiKeyHash',
        type: 'varchar',
        length: '64',
        isNullable: true,
      }),
      new TableColumn({
        name: 'previousApiKeyPrefix',
        type: 'varchar',
        length: '16',
        isNullable: true,
      }),
      timestamp('previousApiKeyExpiresAt'),
      timestamp('previousApiKeyLastUsedAt'),
    ]);
    await queryRunner.createIndex(
      'form',
      new TableIndex({
        name: 'IDX_form_previous_api_key_hash',
        columnNames: ['previousApiKeyHash'],
      }),
    );
    await queryRunner.addColumns('account_api_key', [
      new TableColumn({
        name: 'readOnly',
        type: 'boolean',
        default: 0,
        isNullable: false,
      }),
      timestamp('expiresAt'),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('account_api_key', 'expiresAt');
    await queryRunner.dropColumn('account_api_key', 'readOnly');
    await queryRunner.dropIndex('form', 'IDX_form_previous_api_key_hash');
    for (const column of [
      'previousApiKeyLastUsedAt',
      'previousApiKeyExpiresAt',
      'previousApiKeyPrefix',
      'previousApiKeyHash',
      'apiKeyLastUsedAt',
    ]) {
      await queryRunner.dropColumn('form', column);
    }
  }
}

import {
  MigrationInterface,
  QueryRunner,
  TableColumn,
  TableIndex,
} from 'typeorm';

/**
 * An account's own address is verified by a link mailed at sign-up. Accounts that exist
 * when this runs were made before verification existed: they count as verified, so their
 * owners keep getting the alerts they got before.
 */
export class AccountEmailVerification1764810000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    const timestamp = (name: string) =>
      new TableColumn({
        name,
        type: 'datetime',
        precision: 3,
        isNullable: true,
      });
    await queryRunner.addColumns('account', [
      timestamp('emailVerifiedAt'),
      new TableColumn({
        name: 'verifyTokenHash',
        type: 'varchar',
        length: '64',
        isNullable: true,
      }),
      timestamp('verifyTokenExpiresAt'),
      timestamp('verifySentAt'),
    ]);
    await queryRunner.createIndex(
      'account',
      new TableIndex({
        name: 'UQ_account_verify_token_hash',
        columnNames: ['verifyTokenHash'],
        isUnique: true,
      }),
    );
    const e = (name: string) => queryRunner.connection.driver.escape(name);
    await queryRunner.query(
      `UPDATE ${e('account')} SET ${e('emailVerifiedAt')} = ${e('createdAt')}`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('account', 'UQ_account_verify_token_hash');
    for (const name of [
      'verifySentAt',
      'verifyTokenExpiresAt',
      'verifyTokenHash',
      'emailVerifiedAt',
    ]) {
      await queryRunner.dropColumn('account', name);
    }
  }
}

import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * Sessions record how they signed in (`password`, `password+totp`, `password+passkey`,
 * `passkey`, `sso`), whether a second factor is still owed, and the browser, address and
 * last activity shown on the sessions page. Sessions from before are `password` ones.
 */
export class SessionSignInMethod1765100000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('dashboard_session', [
      new TableColumn({
        name: 'method',
        type: 'varchar',
        length: '24',
        default: "'password'",
      }),
      new TableColumn({
        name: 'secondFactorPending',
        type: 'boolean',
        default: 0,
      }),
      new TableColumn({
        name: 'userAgent',
        type: 'varchar',
        length: '255',
        isNullable: true,
      }),
      new TableColumn({
        name: 'ipAddress',
        type: 'varchar',
        length: '45',
        isNullable: true,
      }),
      new TableColumn({
        name: 'lastSeenAt',
        type: 'datetime',
        precision: 3,
        isNullable: true,
      }),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const column of [
      'lastSeenAt',
      'ipAddress',
      'userAgent',
      'secondFactorPending',
      'method',
    ]) {
      await queryRunner.dropColumn('dashboard_session', column);
    }
  }
}

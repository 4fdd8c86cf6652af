// A statement as the repositories build it for one dialect, before it runs: the SQL text
// (snapshot-tested per dialect beside each repository) and its parameters.

/** `mysql` covers MariaDB too; `sqlite` is better-sqlite3. */
export type SqlDialect = 'mysql' | 'sqlite';

export interface SqlStatement {
  sql: string;
  params: unknown[];
}

// Every statement on mail_quota, the caps on confirmation mail (their dialect SQL in
// mail-quota-sql.ts): a cap's row made when missing, one mail taken or given back by a
// conditional UPDATE, an answered address, and the sweep of rows that count nothing.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { SqlStatement } from '../../common/database/sql-statement.js';
import { MailQuotaSql, type QuotaRule } from './mail-quota-sql.js';

@Injectable()
export class MailQuotaRepository {
  private readonly sql: MailQuotaSql;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.sql = new MailQuotaSql(
      dataSource.options.type === 'better-sqlite3' ? 'sqlite' : 'mysql',
    );
  }

  /** Makes the subject's row unless it exists. */
  async ensure(subject: string): Promise<void> {
    await this.execute(this.sql.ensure(subject));
  }

  /** Takes one mail of the rule from its row; false when the rule refuses. */
  async reserve(rule: QuotaRule, now: Date): Promise<boolean> {
    return (await this.execute(this.sql.reserve(rule, now))) === 1;
  }

  /** Gives back one mail taken today. */
  async release(subject: string, now: Date): Promise<void> {
    await this.execute(this.sql.release(subject, now));
  }

  /** The subject's mails were answered: its unanswered count starts again. */
  async answered(subject: string): Promise<void> {
    await this.execute(this.sql.answered(subject));
  }

  /** Up to `limit` subjects whose last mail went out before `before`. */
  async outlived(before: Date, limit: number): Promise<string[]> {
    const { sql, params } = this.sql.outlived(before, limit);
    const rows = (await this.dataSource.query(sql, params)) as Array<{
      subject: string;
    }>;
    return rows.map((row) => row.subject);
  }

  /** Deletes the subjects' rows still outlived; answers how many went. */
  deleteOutlived(subjects: readonly string[], before: Date): Promise<number> {
    return this.execute(this.sql.deleteOutlived(subjects, before));
  }

  /** Runs a statement; answers the rows it changed. */
  private async execute({ sql, params }: SqlStatement): Promise<number> {
    const runner = this.dataSource.createQueryRunner();
    try {
      const result = await runner.query(sql, params, true);
      return (result as { affected?: number }).affected ?? 0;
    } finally {
      await runner.release();
    }
  }

  /** true on SQLite, whose statements run on this process's event loop. */
  get onEventLoop(): boolean {
    return this.dataSource.options.type === 'better-sqlite3';
  }
}

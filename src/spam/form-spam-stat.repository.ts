// Every statement on form_spam_stat, the daily counts of posts turned away (its dialect SQL
// in form-spam-stat-sql.ts).
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, LessThan } from 'typeorm';
import { FormSpamStat } from './form-spam-stat.entity.js';
import { FormSpamStatSql, type SpamStatCounts } from './form-spam-stat-sql.js';

@Injectable()
export class FormSpamStatRepository {
  private readonly sql: FormSpamStatSql;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.sql = new FormSpamStatSql(
      dataSource.options.type === 'better-sqlite3' ? 'sqlite' : 'mysql',
    );
  }

  /** Adds a form's counts of a day (a form deleted meanwhile fails as a missing reference). */
  async add(row: SpamStatCounts): Promise<void> {
    const { sql, params } = this.sql.add(row);
    await this.dataSource.query(sql, params);
  }

  /** The form's counts summed from `firstDay` on. */
  async since(
    formId: string,
    firstDay: string,
  ): Promise<{ honeypot: number; captcha: number }> {
    const { sql, params } = this.sql.since(formId, firstDay);
    const [row] = await this.dataSource.query<
      Array<{ honeypot: unknown; captcha: unknown }>
    >(sql, params);
    return {
      honeypot: Number(row?.honeypot ?? 0),
      captcha: Number(row?.captcha ?? 0),
    };
  }

  /** Deletes the counts of days before `day`; answers how many rows went. */
  async deleteBefore(day: string): Promise<number> {
    const result = await this.dataSource
      .getRepository(FormSpamStat)
      .delete({ day: LessThan(day) });
    return result.affected ?? 0;
  }
}

// The statements on form_spam_stat that differ between the dialects: adding a form's counts
// of a day (an upsert) and summing them since a day.
import { quoteIdentifier } from '../common/database/sql-identifier.js';
import type {
  SqlDialect,
  SqlStatement,
} from '../common/database/sql-statement.js';

export interface SpamStatCounts {
  formId: string;
  day: string;
  honeypot: number;
  captcha: number;
}

export class FormSpamStatSql {
  constructor(readonly dialect: SqlDialect) {}

  private e(name: string): string {
    return quoteIdentifier(this.dialect, name);
  }

  /** Adds a form's counts of a day to its row, creating the row the first time. */
  add(row: SpamStatCounts): SqlStatement {
    const e = (name: string) => this.e(name);
    const insert = `INSERT INTO ${e('form_spam_stat')} (${e('formId')}, ${e('day')}, ${e('honeypot')}, ${e('captcha')}) VALUES (?, ?, ?, ?) `;
    const sql =
      this.dialect === 'sqlite'
        ? insert +
          `ON CONFLICT (${e('formId')}, ${e('day')}) DO UPDATE SET ${e('honeypot')} = ${e('honeypot')} + excluded.${e('honeypot')}, ${e('captcha')} = ${e('captcha')} + excluded.${e('captcha')}`
        : insert +
          `ON DUPLICATE KEY UPDATE ${e('honeypot')} = ${e('honeypot')} + VALUES(${e('honeypot')}), ${e('captcha')} = ${e('captcha')} + VALUES(${e('captcha')})`;
    return { sql, params: [row.formId, row.day, row.honeypot, row.captcha] };
  }

  /** The form's counts summed from `firstDay` (YYYY-MM-DD) on. */
  since(formId: string, firstDay: string): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `SELECT SUM(${e('honeypot')}) AS ${e('honeypot')}, SUM(${e('captcha')}) AS ${e('captcha')} FROM ${e('form_spam_stat')} WHERE ${e('formId')} = ? AND ${e('day')} >= ?`,
      params: [formId, firstDay],
    };
  }
}

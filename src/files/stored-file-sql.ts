// The SQL text of every statement on stored_file, for both dialects, built without a
// connection so that stored-file-sql.spec.ts can snapshot it. StoredFileRepository runs
// what this builds; the commit writers insert rows with STORED_FILE_COLUMNS.
import type {
  SqlDialect,
  SqlStatement,
} from '../common/database/sql-statement.js';
import { sqlDatetime } from '../common/database/sql-dates.js';
import { quoteIdentifier } from '../common/database/sql-identifier.js';

/** The columns in the order the commit writers insert them. */
export const STORED_FILE_COLUMNS = [
  'id',
  'submissionId',
  'formId',
  'accountId',
  'fieldId',
  'name',
  'size',
  'type',
  'sha256',
  'createdAt',
] as const;

/** A stored_file row as written and read. */
export interface StoredFileRow {
  id: string;
  submissionId: string;
  formId: string;
  accountId: string;
  fieldId: string;
  name: string;
  size: number;
  type: string;
  sha256: string;
  createdAt: Date;
}

/** The values of a row, in STORED_FILE_COLUMNS order (the writers' parameters). */
export function storedFileValues(
  row: StoredFileRow,
  dialect: SqlDialect,
): unknown[] {
  return [
    row.id,
    row.submissionId,
    row.formId,
    row.accountId,
    row.fieldId,
    row.name,
    row.size,
    row.type,
    row.sha256,
    dialect === 'sqlite' ? sqlDatetime(row.createdAt) : row.createdAt,
  ];
}

export class StoredFileSql {
  constructor(readonly dialect: SqlDialect) {}

  private e(name: string): string {
    return quoteIdentifier(this.dialect, name);
  }

  private get columns(): string {
    return STORED_FILE_COLUMNS.map((c) => this.e(c)).join(', ');
  }

  /** The INSERT of `rows` rows (the SQLite writer prepares the one-row form). */
  insert(rows: number): string {
    const row = `(${STORED_FILE_COLUMNS.map(() => '?').join(', ')})`;
    return `INSERT INTO ${this.e('stored_file')} (${this.columns}) VALUES ${Array.from({ length: rows }, () => row).join(', ')}`;
  }

  /** One file of one submission of one form: all three must match (no id guessing). */
  findOne(formId: string, submissionId: string, id: string): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql:
        `SELECT ${this.columns} FROM ${e('stored_file')} ` +
        `WHERE ${e('id')} = ? AND ${e('submissionId')} = ? AND ${e('formId')} = ?`,
      params: [id, submissionId, formId],
    };
  }

  /** The files of some submissions of a form, in the order they were sent. */
  ofSubmissions(
    formId: string,
    submissionIds: readonly string[],
  ): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql:
        `SELECT ${this.columns} FROM ${e('stored_file')} ` +
        `WHERE ${e('submissionId')} IN (${submissionIds.map(() => '?').join(', ')}) AND ${e('formId')} = ? ` +
        `ORDER BY ${e('submissionId')}, ${e('createdAt')}, ${e('id')}`,
      params: [...submissionIds, formId],
    };
  }

  /** Deletes the rows of some submissions of a form (in their deletion's transaction). */
  deleteOfSubmissions(
    formId: string,
    submissionIds: readonly string[],
  ): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql:
        `DELETE FROM ${e('stored_file')} ` +
        `WHERE ${e('submissionId')} IN (${submissionIds.map(() => '?').join(', ')}) AND ${e('formId')} = ?`,
      params: [...submissionIds, formId],
    };
  }

  /** One file by its id alone (a signed link names only the file). */
  findById(id: string): SqlStatement {
    return {
      sql: `SELECT ${this.columns} FROM ${this.e('stored_file')} WHERE ${this.e('id')} = ?`,
      params: [id],
    };
  }

  /** The ids of the files of some submissions, whatever their forms (the notifications'). */
  idsOfSubmissions(submissionIds: readonly string[]): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `SELECT ${e('id')}, ${e('submissionId')} FROM ${e('stored_file')} WHERE ${e('submissionId')} IN (${submissionIds.map(() => '?').join(', ')})`,
      params: [...submissionIds],
    };
  }

  /** Which of these file ids have a row (the orphan sweep's question, by primary key). */
  existing(ids: readonly string[]): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `SELECT ${e('id')} FROM ${e('stored_file')} WHERE ${e('id')} IN (${ids.map(() => '?').join(', ')})`,
      params: [...ids],
    };
  }

  /** The bytes an account's files hold. */
  accountBytes(accountId: string): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `SELECT COALESCE(SUM(${e('size')}), 0) AS ${e('bytes')} FROM ${e('stored_file')} WHERE ${e('accountId')} = ?`,
      params: [accountId],
    };
  }
}

// The SQL of the inbox's writes and reads beside a page of submissions (labels, notes,
// assignees) for both dialects, snapshot-tested in inbox-sql.spec.ts.
import { quoteIdentifier } from '../../common/database/sql-identifier.js';
import type {
  SqlDialect,
  SqlStatement,
} from '../../common/database/sql-statement.js';
import type { SubmissionStatus } from '../submission.entity.js';

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

export class InboxSql {
  constructor(readonly dialect: SqlDialect) {}

  e(name: string): string {
    return quoteIdentifier(this.dialect, name);
  }

  /** What a counted change needs of the listed rows of a form (locked on MySQL/MariaDB). */
  lockRows(formId: string, ids: readonly string[]): SqlStatement {
    const e = (n: string) => this.e(n);
    return {
      sql:
        `SELECT ${e('id')}, ${e('formId')}, ${e('spam')}, ${e('status')}, ${e('assigneeId')}, ${e('createdAt')} ` +
        `FROM ${e('submission')} WHERE ${e('formId')} = ? AND ${e('id')} IN (${marks(ids.length)})` +
        (this.dialect === 'mysql' ? ' FOR UPDATE' : ''),
      params: [formId, ...ids],
    };
  }

  setStatus(
    formId: string,
    ids: readonly string[],
    status: SubmissionStatus,
  ): SqlStatement {
    const e = (n: string) => this.e(n);
    return {
      sql:
        `UPDATE ${e('submission')} SET ${e('status')} = ? WHERE ${e('formId')} = ? ` +
        `AND ${e('id')} IN (${marks(ids.length)}) AND ${e('status')} <> ?`,
      params: [status, formId, ...ids, status],
    };
  }

  setAssignee(
    formId: string,
    ids: readonly string[],
    assigneeId: string | null,
  ): SqlStatement {
    const e = (n: string) => this.e(n);
    return {
      sql:
        `UPDATE ${e('submission')} SET ${e('assigneeId')} = ? WHERE ${e('formId')} = ? ` +
        `AND ${e('id')} IN (${marks(ids.length)})`,
      params: [assigneeId, formId, ...ids],
    };
  }

  /** Puts each label on each submission (those already on stay). */
  addLabels(ids: readonly string[], labelIds: readonly string[]): SqlStatement {
    const e = (n: string) => this.e(n);
    const pairs = ids.flatMap((id) => labelIds.map((label) => [id, label]));
    const verb =
      this.dialect === 'sqlite'
        ? 'INSERT OR IGNORE INTO'
        : 'INSERT IGNORE INTO';
    return {
      sql:
        `${verb} ${e('submission_label')} (${e('submissionId')}, ${e('labelId')}) VALUES ` +
        pairs.map(() => '(?, ?)').join(', '),
      params: pairs.flat(),
    };
  }

  /** Takes the labels off (all of them without `labelIds`; all but `keep`). */
  removeLabels(
    ids: readonly string[],
    labelIds?: readonly string[],
    keep?: readonly string[],
  ): SqlStatement {
    const e = (n: string) => this.e(n);
    let sql = `DELETE FROM ${e('submission_label')} WHERE ${e('submissionId')} IN (${marks(ids.length)})`;
    const params: unknown[] = [...ids];
    if (labelIds) {
      sql += ` AND ${e('labelId')} IN (${marks(labelIds.length)})`;
      params.push(...labelIds);
    }
    if (keep && keep.length > 0) {
      sql += ` AND ${e('labelId')} NOT IN (${marks(keep.length)})`;
      params.push(...keep);
    }
    return { sql, params };
  }

  /** The label names on each listed submission, by name. */
  labelsOf(ids: readonly string[]): SqlStatement {
    const e = (n: string) => this.e(n);
    return {
      sql:
        `SELECT ${e('sl')}.${e('submissionId')} AS ${e('submissionId')}, ${e('l')}.${e('name')} AS ${e('name')} ` +
        `FROM ${e('submission_label')} ${e('sl')} JOIN ${e('label')} ${e('l')} ON ${e('l')}.${e('id')} = ${e('sl')}.${e('labelId')} ` +
        `WHERE ${e('sl')}.${e('submissionId')} IN (${marks(ids.length)}) ORDER BY ${e('l')}.${e('name')}`,
      params: [...ids],
    };
  }

  noteCounts(ids: readonly string[]): SqlStatement {
    const e = (n: string) => this.e(n);
    return {
      sql:
        `SELECT ${e('submissionId')}, COUNT(*) AS ${e('count')} FROM ${e('submission_note')} ` +
        `WHERE ${e('submissionId')} IN (${marks(ids.length)}) GROUP BY ${e('submissionId')}`,
      params: [...ids],
    };
  }

  usersOf(userIds: readonly string[]): SqlStatement {
    const e = (n: string) => this.e(n);
    return {
      sql: `SELECT ${e('id')}, ${e('email')} FROM ${e('user')} WHERE ${e('id')} IN (${marks(userIds.length)})`,
      params: [...userIds],
    };
  }

  /** Whether a user is a member of the account (an assignee must be). */
  membership(accountId: string, userId: string): SqlStatement {
    const e = (n: string) => this.e(n);
    return {
      sql: `SELECT ${e('userId')} FROM ${e('membership')} WHERE ${e('accountId')} = ? AND ${e('userId')} = ?`,
      params: [accountId, userId],
    };
  }
}

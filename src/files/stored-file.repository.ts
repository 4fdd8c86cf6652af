// Every statement on stored_file but the commit writers' INSERT (stored-file-sql.ts builds
// them all, snapshot-tested per dialect).
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { toDate } from '../common/database/sql-dates.js';
import { StoredFileSql, type StoredFileRow } from './stored-file-sql.js';

type RawRow = Omit<StoredFileRow, 'createdAt' | 'size'> & {
  createdAt: Date | string;
  size: number | string;
};

function toRow(raw: RawRow): StoredFileRow {
  return { ...raw, size: Number(raw.size), createdAt: toDate(raw.createdAt) };
}

@Injectable()
export class StoredFileRepository {
  readonly sql: StoredFileSql;

  constructor(private readonly dataSource: DataSource) {
    this.sql = new StoredFileSql(
      dataSource.options.type === 'better-sqlite3' ? 'sqlite' : 'mysql',
    );
  }

  async findOne(
    formId: string,
    submissionId: string,
    id: string,
  ): Promise<StoredFileRow | null> {
    const { sql, params } = this.sql.findOne(formId, submissionId, id);
    const rows = (await this.dataSource.query(sql, params)) as RawRow[];
    return rows.length > 0 ? toRow(rows[0]) : null;
  }

  async ofSubmissions(
    formId: string,
    submissionIds: readonly string[],
  ): Promise<StoredFileRow[]> {
    if (submissionIds.length === 0) return [];
    const { sql, params } = this.sql.ofSubmissions(formId, submissionIds);
    const rows = (await this.dataSource.query(sql, params)) as RawRow[];
    return rows.map(toRow);
  }

  async findById(id: string): Promise<StoredFileRow | null> {
    const { sql, params } = this.sql.findById(id);
    const rows = (await this.dataSource.query(sql, params)) as RawRow[];
    return rows.length > 0 ? toRow(rows[0]) : null;
  }

  /** The ids of the stored files of each of these submissions. */
  async idsBySubmission(
    submissionIds: readonly string[],
  ): Promise<Map<string, Set<string>>> {
    const found = new Map<string, Set<string>>();
    if (submissionIds.length === 0) return found;
    const { sql, params } = this.sql.idsOfSubmissions(submissionIds);
    const rows = (await this.dataSource.query(sql, params)) as Array<{
      id: string;
      submissionId: string;
    }>;
    for (const row of rows) {
      const ids = found.get(row.submissionId) ?? new Set<string>();
      ids.add(row.id);
      found.set(row.submissionId, ids);
    }
    return found;
  }

  /** The ids among `ids` that have a row. */
  async existing(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const { sql, params } = this.sql.existing(ids);
    const rows = (await this.dataSource.query(sql, params)) as Array<{
      id: string;
    }>;
    return new Set(rows.map((row) => row.id));
  }

  /** Deletes the submissions' file rows in `manager`'s transaction (their deletion's). */
  async deleteOfSubmissions(
    manager: EntityManager,
    formId: string,
    submissionIds: readonly string[],
  ): Promise<void> {
    const { sql, params } = this.sql.deleteOfSubmissions(formId, submissionIds);
    await manager.query(sql, params);
  }

  async accountBytes(accountId: string): Promise<number> {
    const { sql, params } = this.sql.accountBytes(accountId);
    const rows = (await this.dataSource.query(sql, params)) as Array<{
      bytes: number | string;
    }>;
    return Number(rows[0]?.bytes ?? 0);
  }
}

// Every statement of the inbox's work (its SQL in inbox-sql.ts): a change locks the
// submissions it touches and writes their status, assignee and labels (submission_label)
// in the caller's transaction; a page reads the labels, note counts and assignees of its
// rows; an assignee's membership is checked.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { SqlStatement } from '../../common/database/sql-statement.js';
import type { SubmissionStatus } from '../submission.entity.js';
import { InboxSql } from './inbox-sql.js';

/** A submission as a change locks it. */
export interface LockedRow {
  id: string;
  formId: string;
  spam: number | boolean;
  status: SubmissionStatus;
  assigneeId: string | null;
  createdAt: Date | string;
}

@Injectable()
export class InboxRepository {
  readonly sql: InboxSql;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.sql = new InboxSql(
      dataSource.options.type === 'better-sqlite3' ? 'sqlite' : 'mysql',
    );
  }

  private run<T>(
    runner: DataSource | EntityManager,
    { sql, params }: SqlStatement,
  ): Promise<T> {
    return runner.query<T>(sql, params);
  }

  /** Whether the user is a member of the account. */
  async isMember(accountId: string, userId: string): Promise<boolean> {
    const rows = await this.run<unknown[]>(
      this.dataSource,
      this.sql.membership(accountId, userId),
    );
    return rows.length > 0;
  }

  /** The form's listed submissions, locked until `manager`'s transaction ends. */
  lockRows(
    manager: EntityManager,
    formId: string,
    ids: readonly string[],
  ): Promise<LockedRow[]> {
    return this.run<LockedRow[]>(manager, this.sql.lockRows(formId, ids));
  }

  async setStatus(
    manager: EntityManager,
    formId: string,
    ids: readonly string[],
    status: SubmissionStatus,
  ): Promise<void> {
    await this.run(manager, this.sql.setStatus(formId, ids, status));
  }

  async setAssignee(
    manager: EntityManager,
    formId: string,
    ids: readonly string[],
    assigneeId: string | null,
  ): Promise<void> {
    await this.run(manager, this.sql.setAssignee(formId, ids, assigneeId));
  }

  /** Puts each label on each submission (those already on stay). */
  async addLabels(
    manager: EntityManager,
    ids: readonly string[],
    labelIds: readonly string[],
  ): Promise<void> {
    await this.run(manager, this.sql.addLabels(ids, labelIds));
  }

  /** Takes the labels off (all of them without `labelIds`; all but `keep`). */
  async removeLabels(
    manager: EntityManager,
    ids: readonly string[],
    labelIds?: readonly string[],
    keep?: readonly string[],
  ): Promise<void> {
    await this.run(manager, this.sql.removeLabels(ids, labelIds, keep));
  }

  /** The label names on each listed submission, by name. */
  labelsOf(
    ids: readonly string[],
  ): Promise<Array<{ submissionId: string; name: string }>> {
    return this.run(this.dataSource, this.sql.labelsOf(ids));
  }

  noteCounts(
    ids: readonly string[],
  ): Promise<Array<{ submissionId: string; count: number | string }>> {
    return this.run(this.dataSource, this.sql.noteCounts(ids));
  }

  usersOf(
    userIds: readonly string[],
  ): Promise<Array<{ id: string; email: string }>> {
    return this.run(this.dataSource, this.sql.usersOf(userIds));
  }
}

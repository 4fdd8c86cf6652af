// Submissions for tests: rows are inserted straight through the repository with
// controlled createdAt values, independent of the public submit route (with the form's
// counters, as the seeder keeps them); and the helpers
// the submissions specs share to compare them with what the API answers.
import { ulid } from 'ulid';
import {
  Submission,
  type SubmissionData,
} from '../../src/submissions/submission.entity.js';
import { CounterChanges } from '../../src/submissions/counters/form-counters.js';
import { FormCounterRepository } from '../../src/submissions/counters/form-counter.repository.js';
import type { TestApp } from '../support/test-app.js';

export interface SeedRow {
  id?: string;
  createdAt: Date;
  data?: SubmissionData;
  ip?: string | null;
  userAgent?: string | null;
  origin?: string | null;
  /** In the spam folder, for these reasons. */
  spamReasons?: string[];
}

export async function insertSubmissions(
  t: TestApp,
  formId: string,
  rows: SeedRow[],
): Promise<Submission[]> {
  const repo = t.dataSource.getRepository(Submission);
  const values = rows.map((row) => ({
    id: row.id ?? ulid(row.createdAt.getTime()),
    formId,
    data: row.data ?? { name: 'Someone', email: 'someone@example.com' },
    ip: row.ip === undefined ? '203.0.113.9' : row.ip,
    userAgent: row.userAgent === undefined ? 'test-agent/1.0' : row.userAgent,
    origin: row.origin === undefined ? 'https://www.example.com' : row.origin,
    createdAt: row.createdAt,
    spam: row.spamReasons !== undefined,
    spamReasons: row.spamReasons ?? null,
  }));
  const entities = values.map((value) => repo.create(value));
  for (let i = 0; i < entities.length; i += 500) {
    // Copies: TypeORM writes the columns the database defaulted back into the objects
    // it inserted, matched by position, which SQLite's RETURNING does not keep.
    await repo.insert(
      values.slice(i, i + 500).map((value) => repo.create(value)),
    );
  }
  // The form's counters, as every writer of rows keeps them.
  const changes = new CounterChanges();
  for (const value of values) {
    changes.row({ ...value, status: 'new' }, 1);
  }
  await t.dataSource.transaction((manager) =>
    t.app.get(FormCounterRepository).apply(manager, changes),
  );
  for (const entity of entities) entity.status ??= 'new';
  return entities;
}

/** The list order: createdAt descending, then id descending. */
export function newestFirst(
  a: { createdAt: Date; id: string },
  b: { createdAt: Date; id: string },
): number {
  const byTime = b.createdAt.getTime() - a.createdAt.getTime();
  if (byTime !== 0) return byTime;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

export const at = (iso: string): Date => new Date(iso);

/** The API shape of a stored row. */
export function asApi(row: Submission) {
  return {
    id: row.id,
    formId: row.formId,
    data: row.data,
    createdAt: row.createdAt.toISOString(),
    meta: { ip: row.ip, userAgent: row.userAgent, origin: row.origin },
    spam: row.spam ?? false,
    spamReasons: row.spamReasons ?? [],
    status: row.status ?? 'new',
    assignee: null,
    labels: [],
    noteCount: 0,
  };
}

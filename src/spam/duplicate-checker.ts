// The opt-in duplicate rule: the same data from the same IP for the same form within
// DUPLICATE_WINDOW_MS is spam. It compares against the form's latest stored clean
// submissions (a bounded range of the keyset index, see SubmissionSql.recentFromIp),
// so it costs one small indexed read, and only for forms that turned it on.
import { Injectable } from '@nestjs/common';
import type { SubmissionData } from '../submissions/submission.entity.js';
import { toData } from '../submissions/queries/submission-rows.js';
import { SubmissionRepository } from '../submissions/submission.repository.js';

export const DUPLICATE_WINDOW_MS = 10 * 60_000;

/** JSON with keys in sorted order: the same data whatever order its keys came in. */
export function canonicalData(data: SubmissionData): string {
  return JSON.stringify(
    Object.keys(data)
      .sort()
      .map((key) => [key, data[key]]),
  );
}

@Injectable()
export class DuplicateChecker {
  constructor(private readonly submissions: SubmissionRepository) {}

  /** true when the form stored the same data from `ip` within the window. */
  async isDuplicate(
    formId: string,
    ip: string | null,
    data: SubmissionData,
    now: number,
  ): Promise<boolean> {
    if (ip === null) return false;
    const recent = await this.submissions.recentDataFromIp(
      formId,
      ip,
      new Date(now - DUPLICATE_WINDOW_MS),
    );
    if (recent.length === 0) return false;
    const wanted = canonicalData(data);
    return recent.some((stored) => canonicalData(toData(stored)) === wanted);
  }
}

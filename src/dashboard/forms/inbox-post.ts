// Reading the inbox's dashboard posts (a row's or the detail page's status and assignee,
// the bulk bar): plain form fields, checked here so a bad one is a 400 page that says why.
import { BadRequestException } from '@nestjs/common';
import type { SubmissionStatus } from '../../submissions/submission.entity.js';
import type { InboxChange } from '../../submissions/inbox/inbox.service.js';
import { textOf } from '../form-body.js';
import { isStatus } from './inbox-filters.js';

/** The API's bulk limit (DESIGN 20), the same on the dashboard. */
export const MAX_BULK_IDS = 500;

function has(body: unknown, key: string): boolean {
  return body !== null && typeof body === 'object' && Object.hasOwn(body, key);
}

/** Every value of a field that may be repeated (checkboxes), as text. */
export function listOf(body: unknown, key: string): string[] {
  if (!has(body, key)) return [];
  const value = (body as Record<string, unknown>)[key];
  const values = Array.isArray(value) ? (value as unknown[]) : [value];
  return values.filter((v): v is string => typeof v === 'string' && v !== '');
}

function statusIn(body: unknown): SubmissionStatus | undefined {
  const status = textOf(body, 'status');
  if (status === '') return undefined;
  if (!isStatus(status)) {
    throw new BadRequestException('Choose New, Open or Closed as the status');
  }
  return status;
}

/**
 * One submission's change: status, assignee ('' is nobody) and, from the detail page
 * (which sends `labelsShown`), the labels it then has.
 */
export function readWorkPost(body: unknown): InboxChange {
  const change: InboxChange = {};
  const status = statusIn(body);
  if (status) change.status = status;
  if (has(body, 'assigneeId')) {
    change.assigneeId = textOf(body, 'assigneeId') || null;
  }
  if (textOf(body, 'labelsShown') === '1') {
    change.labels = listOf(body, 'labels');
  }
  if (Object.keys(change).length === 0) {
    throw new BadRequestException('Choose a status or an assignee to save');
  }
  return change;
}

/** The selected ids of a bulk post: at least one, at most MAX_BULK_IDS. */
export function readBulkIds(body: unknown): string[] {
  const ids = [...new Set(listOf(body, 'ids'))];
  if (ids.length === 0) {
    throw new BadRequestException('Select at least one submission first');
  }
  if (ids.length > MAX_BULK_IDS) {
    throw new BadRequestException(
      `Select at most ${MAX_BULK_IDS} submissions at a time`,
    );
  }
  return ids;
}

/** The bulk bar's change: unchanged selects send ''; 'none' assigns nobody. */
export function readBulkChange(body: unknown): InboxChange {
  const change: InboxChange = {};
  const status = statusIn(body);
  if (status) change.status = status;
  const assignee = textOf(body, 'assigneeId');
  if (assignee) change.assigneeId = assignee === 'none' ? null : assignee;
  const add = textOf(body, 'addLabel');
  if (add) change.addLabels = [add];
  const remove = textOf(body, 'removeLabel');
  if (remove) change.removeLabels = [remove];
  if (Object.keys(change).length === 0) {
    throw new BadRequestException(
      'Choose a status, an assignee or a label to apply to the selected submissions',
    );
  }
  return change;
}

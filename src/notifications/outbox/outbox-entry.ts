// The notification outbox's rows, and how they are made. A commit batch writes one event
// listing its submissions that notify (with the email control values each carried); the
// worker expands it into one delivery per submission and target of its form
// (worker/outbox-expansion.service.ts). See docs/notifications.md.
import { newUlid } from '../../common/values/ulid.js';
import { sqlDatetime } from '../../common/database/sql-dates.js';
import type { ChannelName } from '../notification-channel.js';

/** A delivery row as it is first written (due at once). */
export interface NewDelivery {
  id: string;
  formId: string;
  accountId: string;
  submissionId: string | null;
  channel: ChannelName;
  target: string;
  event: string;
  /** Small JSON for the channel (email: the `_subject` / `_replyto` values), or null. */
  payload: string | null;
  createdAt: Date;
}

export interface DeliveryTarget {
  channel: ChannelName;
  target: string;
}

/** The email control values a submission carried, by key. */
export type EmailPayload = Readonly<Record<string, string>>;

/** A submission an outbox event lists. */
export interface OutboxEntry {
  submissionId: string;
  /** `_subject` / `_replyto` as sent (they are never stored with the submission), or null. */
  payload: EmailPayload | null;
}

export const SUBMISSION_CREATED = 'submission.created';
export const WEBHOOK_TEST = 'webhook.test';

/** Control keys an email delivery keeps for send time (they are never stored as data). */
const EMAIL_CONTROLS = ['_subject', '_replyto'] as const;
/** Longest control value kept; the email channel cuts the subject shorter still. */
const MAX_CONTROL_LENGTH = 1000;

/**
 * `{"_subject": …, "_replyto": …}` with the string values the body carried (the first one
 * of a repeated key), or null when it carried neither.
 */
export function emailPayload(body: unknown): EmailPayload | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return null;
  }
  const payload: Record<string, string> = {};
  for (const key of EMAIL_CONTROLS) {
    if (!Object.hasOwn(body, key)) continue;
    let value = (body as Record<string, unknown>)[key];
    if (Array.isArray(value)) value = value[0];
    if (typeof value === 'string' && value !== '') {
      payload[key] = value.slice(0, MAX_CONTROL_LENGTH);
    }
  }
  return Object.keys(payload).length > 0 ? payload : null;
}

/** Only string values of an object, or an empty object. */
function strings(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {};
  }
  return Object.fromEntries(
    Object.entries(value).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}

/** The payload stored on a delivery, read back (an empty object when there is none). */
export function parsePayload(payload: string | null): Record<string, string> {
  if (payload === null) return {};
  try {
    return strings(JSON.parse(payload));
  } catch {
    return {};
  }
}

/** The outbox entry of an accepted submission that notifies. */
export function outboxEntry(submissionId: string, body: unknown): OutboxEntry {
  return { submissionId, payload: emailPayload(body) };
}

/**
 * The parameters of a batch's event row (id, body, createdAt), or null when no entry:
 * the body is `[[id], [id, {"_subject": …}], …]`.
 */
export function eventRow(
  entries: readonly OutboxEntry[],
  now: Date,
): [string, string, string] | null {
  if (entries.length === 0) return null;
  const body = entries.map(({ submissionId, payload }) =>
    payload === null ? [submissionId] : [submissionId, payload],
  );
  return [newUlid(now.getTime()), JSON.stringify(body), sqlDatetime(now)];
}

/** An event's body read back (text, or parsed already by MySQL's JSON type). */
export function parseEvent(body: unknown): OutboxEntry[] {
  let list: unknown = body;
  if (typeof body === 'string') {
    try {
      list = JSON.parse(body);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(list)) return [];
  const entries: OutboxEntry[] = [];
  for (const item of list) {
    if (!Array.isArray(item) || typeof item[0] !== 'string') continue;
    const payload = item.length > 1 ? strings(item[1]) : {};
    entries.push({
      submissionId: item[0],
      payload: Object.keys(payload).length > 0 ? payload : null,
    });
  }
  return entries;
}

/** One delivery per target, created (and due) when the submission was. */
export function submissionDeliveries(
  targets: readonly DeliveryTarget[],
  submission: {
    id: string;
    formId: string;
    accountId: string;
    createdAt: Date;
  },
  payload: EmailPayload | null,
): NewDelivery[] {
  const email = payload === null ? null : JSON.stringify(payload);
  return targets.map(({ channel, target }) => ({
    id: newUlid(submission.createdAt.getTime()),
    formId: submission.formId,
    accountId: submission.accountId,
    submissionId: submission.id,
    channel,
    target,
    event: SUBMISSION_CREATED,
    payload: channel === 'email' || channel === 'autoresponse' ? email : null,
    createdAt: submission.createdAt,
  }));
}

/** An outbox event as read back: its id and the submissions it lists. */
export interface PendingEvent {
  id: string;
  entries: OutboxEntry[];
}

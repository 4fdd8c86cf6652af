// The rows a new submission adds to the notification outbox: one delivery per target the
// form's channels reported (cached with the form by the submit path).
import { newSubmissionId } from '../submissions/submission-id.js';
import type { ChannelName } from './notification-channel.js';

/** A notification delivery row, written in the same transaction as its submission. */
export interface NewDelivery {
  id: string;
  formId: string;
  submissionId: string | null;
  channel: string;
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
export function emailPayload(body: unknown): string | null {
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
  return Object.keys(payload).length > 0 ? JSON.stringify(payload) : null;
}

/** The payload stored by emailPayload, read back (an empty object when there is none). */
export function parsePayload(payload: string | null): Record<string, string> {
  if (payload === null) return {};
  try {
    const parsed = JSON.parse(payload) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    );
  } catch {
    return {};
  }
}

export function submissionDeliveries(
  targets: readonly DeliveryTarget[],
  submission: { id: string; formId: string; createdAt: Date },
  body: unknown,
): NewDelivery[] {
  if (targets.length === 0) return [];
  let payload: string | null | undefined;
  return targets.map(({ channel, target }) => {
    if (channel === 'email') payload ??= emailPayload(body);
    return {
      id: newSubmissionId(submission.createdAt.getTime()),
      formId: submission.formId,
      submissionId: submission.id,
      channel,
      target,
      event: SUBMISSION_CREATED,
      payload: channel === 'email' ? (payload ?? null) : null,
      createdAt: submission.createdAt,
    };
  });
}

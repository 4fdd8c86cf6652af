// What becomes of a delivery after an attempt: its next status and when it is due again.
import type { AttemptOutcome } from '../notification-channel.js';
import type { DeliveryStatus } from '../deliveries/delivery.entity.js';

export const JITTER = 0.1;

export interface NextStep {
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
}

/** `seconds` ± 10 %, in milliseconds; `random` in [0, 1). */
export function withJitter(seconds: number, random = Math.random()): number {
  return Math.round(seconds * 1000 * (1 + JITTER * (2 * random - 1)));
}

/**
 * After an attempt: succeeded; dead when the target refused for good or the schedule is
 * spent (N delays → N + 1 attempts since the schedule started); otherwise failed and due
 * after the next delay of the schedule, with jitter.
 */
export function nextStep(
  outcome: Pick<AttemptOutcome, 'ok' | 'final' | 'retryAfterMs'>,
  attemptsSinceStart: number,
  schedule: readonly number[],
  now: Date,
  random = Math.random(),
): NextStep {
  if (outcome.ok) return { status: 'succeeded', nextAttemptAt: null };
  if (outcome.final || attemptsSinceStart > schedule.length) {
    return { status: 'dead', nextAttemptAt: null };
  }
  // A throttle answer is honoured: never due before the time the target asked for.
  const delay = Math.max(
    withJitter(schedule[attemptsSinceStart - 1], random),
    outcome.retryAfterMs ?? 0,
  );
  return { status: 'failed', nextAttemptAt: new Date(now.getTime() + delay) };
}

import { Injectable } from '@nestjs/common';

/** Failed attempts allowed per key inside the window before further attempts are refused. */
export const SIGN_IN_MAX_FAILURES = 10;
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
/** Keys kept in memory before old ones are swept. */
const SWEEP_THRESHOLD = 10_000;

/**
 * Counts failed log-in and sign-up attempts per key (an IP address or an e-mail address)
 * in a fixed window. Kept in process memory: with several replicas each counts on its own,
 * which still bounds password guessing to replicas × limit per window.
 */
@Injectable()
export class SignInThrottle {
  private readonly failures = new Map<string, number[]>();

  /** The clock; unit tests replace it. */
  now: () => number = Date.now;

  /** Seconds until every key is below the limit again; 0 when the attempt may go ahead. */
  retryAfterSeconds(keys: string[]): number {
    const now = this.now();
    let wait = 0;
    for (const key of keys) {
      const recent = this.recent(key, now);
      if (recent.length >= SIGN_IN_MAX_FAILURES) {
        const oldest = recent[recent.length - SIGN_IN_MAX_FAILURES];
        wait = Math.max(wait, oldest + SIGN_IN_WINDOW_MS - now);
      }
    }
    return Math.ceil(wait / 1000);
  }

  recordFailure(keys: string[]): void {
    const now = this.now();
    if (this.failures.size > SWEEP_THRESHOLD) this.sweep(now);
    for (const key of keys) {
      const recent = this.recent(key, now);
      recent.push(now);
      // Only the newest attempts matter for the decision.
      this.failures.set(key, recent.slice(-SIGN_IN_MAX_FAILURES));
    }
  }

  reset(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter(
      (at) => at > now - SIGN_IN_WINDOW_MS,
    );
  }

  private sweep(now: number): void {
    for (const [key, attempts] of this.failures) {
      if (attempts.every((at) => at <= now - SIGN_IN_WINDOW_MS)) {
        this.failures.delete(key);
      }
    }
  }
}

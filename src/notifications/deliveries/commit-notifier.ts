import { Injectable } from '@nestjs/common';

/**
 * Wakes this process's worker the moment the commit queue has committed deliveries, so a
 * notification leaves within milliseconds instead of at the next poll, and counts the
 * submissions committed, so the worker can tell when this process is busy taking them.
 */
@Injectable()
export class CommitNotifier {
  private readonly listeners = new Set<() => void>();
  /** Submissions committed by this process since it started. */
  submissions = 0;

  submissionsCommitted(count: number): void {
    this.submissions += count;
  }

  /** Registers a listener; returns the function that removes it. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  committed(): void {
    for (const listener of this.listeners) listener();
  }
}

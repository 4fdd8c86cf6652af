import { Injectable } from '@nestjs/common';

/**
 * Wakes this process's worker the moment the commit queue has committed deliveries, so a
 * notification leaves within milliseconds instead of at the next poll.
 */
@Injectable()
export class DeliverySignal {
  private readonly listeners = new Set<() => void>();

  /** Registers a listener; returns the function that removes it. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  committed(): void {
    for (const listener of this.listeners) listener();
  }
}

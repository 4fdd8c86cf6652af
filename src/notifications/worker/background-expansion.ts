// The worker's expansions of outbox events (outbox-expansion.service.ts), one at a time
// and beside its claims and sends: a backlog of events is expanded while the deliveries
// already claimed are being sent, instead of in turn with their claims.
import { Logger } from '@nestjs/common';
import type { OutboxExpansionService } from './outbox-expansion.service.js';

/** Events expanded per transaction while they list at most EXPAND_SUBMISSIONS in all. */
const EXPAND_EVENTS = 16;
const EXPAND_SUBMISSIONS = 256;

export class BackgroundExpansion {
  private readonly logger = new Logger('DeliveryWorker');
  /** The last expansion left events waiting. */
  more = false;
  /** The expansion under way. */
  running: Promise<void> | undefined;

  /** `done(made)`: an expansion ended, `made` when it wrote deliveries. */
  constructor(
    private readonly expander: OutboxExpansionService,
    private readonly done: (made: boolean) => void,
  ) {}

  /** Starts an expansion unless one runs; `one`: a single event (the worker steps back). */
  start(one: boolean): Promise<void> {
    this.running ??= this.expand(one).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async expand(one: boolean): Promise<void> {
    let made = false;
    try {
      const expansion = await (one
        ? this.expander.expand(1)
        : this.expander.expand(EXPAND_EVENTS, EXPAND_SUBMISSIONS));
      this.more = expansion.more;
      made = expansion.deliveries > 0;
    } catch (error) {
      this.more = false;
      this.logger.warn(
        `Cannot expand outbox events: ${(error as Error).message}`,
      );
    }
    this.done(made);
  }
}

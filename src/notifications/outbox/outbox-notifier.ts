// Notifying submissions after the fact: a submission that did not notify when it was
// stored (it was taken for spam) is notified as if it had just arrived — one delivery per
// target its form has now — and only once, however often this is asked: the worker
// expands the event into deliveries that the unique key on (submission, channel, target)
// keeps single.
import { Injectable } from '@nestjs/common';
import { DeliveryRepository } from '../deliveries/delivery.repository.js';
import { CommitNotifier } from '../deliveries/commit-notifier.js';
import type { EmailPayload } from './outbox-entry.js';

@Injectable()
export class OutboxNotifier {
  constructor(
    private readonly outbox: DeliveryRepository,
    private readonly signal: CommitNotifier,
  ) {}

  /**
   * Writes an outbox event listing the submissions (with the email control values each
   * carried, when they were kept); resolves once it is committed.
   */
  async notify(
    submissionIds: readonly string[],
    payloads: ReadonlyMap<string, EmailPayload> = new Map(),
  ): Promise<void> {
    if (submissionIds.length === 0) return;
    await this.outbox.addEvent(
      submissionIds.map((submissionId) => ({
        submissionId,
        payload: payloads.get(submissionId) ?? null,
      })),
    );
    this.signal.committed();
  }
}

// The worker's first step: an outbox event (the submissions one commit batch notifies
// about) becomes one delivery per submission and target of its form, and the event goes,
// in one transaction. Events are expanded oldest first. A submission deleted meanwhile,
// or whose form is gone, gets no delivery; one whose deliveries exist already (the event
// was expanded before, or listed twice) gets no second one: the unique key on
// (submission, channel, target) keeps the first.
import { Injectable } from '@nestjs/common';
import { SubmissionRepository } from '../../submissions/submission.repository.js';
import { toDate } from '../../common/database/sql-dates.js';
import { DeliveryRepository } from '../deliveries/delivery.repository.js';
import { NotificationTargetCache } from '../outbox/notification-target.cache.js';
import {
  submissionDeliveries,
  type NewDelivery,
} from '../outbox/outbox-entry.js';

/** Submissions read per statement. */
const READ_CHUNK = 500;

export interface Expansion {
  /** Events expanded (or found expanded by another worker). */
  events: number;
  /** Deliveries written. */
  deliveries: number;
  /** More events were waiting. */
  more: boolean;
}

@Injectable()
export class OutboxExpansionService {
  constructor(
    private readonly outbox: DeliveryRepository,
    private readonly submissions: SubmissionRepository,
    private readonly targets: NotificationTargetCache,
  ) {}

  /**
   * Expands up to `maxEvents` of the oldest events, in one transaction: the first, and
   * those after it while they list no more than `maxSubmissions` submissions in all.
   */
  async expand(
    maxEvents: number,
    maxSubmissions = Infinity,
  ): Promise<Expansion> {
    const pending = await this.outbox.nextEvents(maxEvents + 1);
    let listed = 0;
    let count = 0;
    while (count < Math.min(maxEvents, pending.length)) {
      listed += pending[count].entries.length;
      if (count > 0 && listed > maxSubmissions) break;
      count += 1;
    }
    const more = pending.length > count;
    const events = pending.slice(0, count);
    if (events.length === 0) return { events: 0, deliveries: 0, more: false };
    const ids = [
      ...new Set(
        events.flatMap((event) => event.entries.map((e) => e.submissionId)),
      ),
    ];
    const rows = new Map<string, { formId: string; createdAt: Date }>();
    for (let i = 0; i < ids.length; i += READ_CHUNK) {
      for (const row of await this.submissions.findMany(
        ids.slice(i, i + READ_CHUNK),
        ['id', 'formId', 'createdAt'],
      )) {
        rows.set(row.id, {
          formId: row.formId,
          createdAt: toDate(row.createdAt),
        });
      }
    }
    const forms = await this.targets.of(
      [...rows.values()].map((row) => row.formId),
    );
    let deliveries = 0;
    const expansions = events.map((event) => {
      const made: NewDelivery[] = [];
      for (const entry of event.entries) {
        const row = rows.get(entry.submissionId);
        const form = row === undefined ? undefined : forms.get(row.formId);
        if (row === undefined || form === undefined) continue;
        made.push(
          ...submissionDeliveries(
            form.targets,
            {
              id: entry.submissionId,
              formId: row.formId,
              accountId: form.accountId,
              createdAt: row.createdAt,
            },
            entry.payload,
          ),
        );
      }
      deliveries += made.length;
      return { id: event.id, deliveries: made };
    });
    await this.outbox.expand(expansions);
    return { events: events.length, deliveries, more };
  }
}

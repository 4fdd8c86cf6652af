// Notifications of a submission that is already stored: one moved out of the spam folder
// is notified then, as if it had just arrived. The move and the outbox rows are one
// transaction, so a crash never leaves a released submission unnotified, and both are
// conditional, so the notifications are created once however often the release is
// repeated (or raced): the move happens only while the submission is in the folder, and
// no delivery is created for a submission that already has some.
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SubmissionRepository } from '../submissions/submission.repository.js';
import type { SpamRelease } from '../submissions/spam-release.js';
import { DeliverySignal } from './delivery-signal.js';
import { Delivery } from './delivery.entity.js';
import {
  NOTIFICATION_CHANNELS,
  type NotificationChannel,
} from './notification-channel.js';
import { submissionDeliveries, type DeliveryTarget } from './outbox.js';

@Injectable()
export class StoredSubmissionNotifications implements SpamRelease {
  constructor(
    private readonly dataSource: DataSource,
    private readonly submissions: SubmissionRepository,
    @Inject(NOTIFICATION_CHANNELS)
    private readonly channels: NotificationChannel[],
    private readonly signal: DeliverySignal,
  ) {}

  async release(formId: string, submissionId: string): Promise<boolean> {
    // Read before the transaction: on SQLite it holds the one connection.
    const targets = await this.targetsOf(formId);
    let created = 0;
    const moved = await this.dataSource.transaction(async (manager) => {
      const runner = manager.queryRunner!;
      const wasSpam = await this.submissions.moveToFolder(
        formId,
        submissionId,
        false,
        [],
        runner,
      );
      if (!wasSpam || targets.length === 0) return wasSpam;
      const existing: unknown[] = await runner.query(
        'SELECT 1 AS found FROM delivery WHERE formId = ? AND submissionId = ? LIMIT 1',
        [formId, submissionId],
      );
      if (existing.length > 0) return true;
      const now = new Date();
      const rows = submissionDeliveries(
        targets,
        { id: submissionId, formId, createdAt: now },
        undefined,
      ).map((delivery) =>
        manager.create(Delivery, {
          ...delivery,
          channel: delivery.channel as Delivery['channel'],
          status: 'pending',
          attempts: 0,
          scheduleStart: 0,
          nextAttemptAt: now,
        }),
      );
      await manager.insert(Delivery, rows);
      created = rows.length;
      return true;
    });
    if (created > 0) this.signal.committed();
    return moved;
  }

  private async targetsOf(formId: string): Promise<DeliveryTarget[]> {
    const lists = await Promise.all(
      this.channels.map(async (channel) =>
        (await channel.targetsFor(formId)).map((target) => ({
          channel: channel.name,
          target,
        })),
      ),
    );
    return lists.flat();
  }
}

// Moving a submission out of the spam folder notifies it then, as if it had just arrived:
// the move and an outbox event listing the submission are one transaction, so a crash
// never leaves a released submission unnotified. Once, however often the release is
// repeated or raced: the move happens only while the submission is in the folder, and the
// worker expands events into deliveries that the unique key on (submission, channel,
// target) keeps single — a submission notified before gets nothing new.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service.js';
import { SubmissionRepository } from '../../submissions/submission.repository.js';
import type { SpamRelease } from '../../submissions/spam-release.js';
import { DeliveryRepository } from '../deliveries/delivery.repository.js';
import { CommitNotifier } from '../deliveries/commit-notifier.js';

@Injectable()
export class SpamReleaseNotifier implements SpamRelease {
  constructor(
    private readonly submissions: SubmissionRepository,
    private readonly outbox: DeliveryRepository,
    private readonly signal: CommitNotifier,
    private readonly auditLog: AuditLogService,
  ) {}

  async release(
    formId: string,
    submissionId: string,
    during?: (manager: EntityManager) => Promise<unknown>,
  ): Promise<boolean> {
    const moved = await this.auditLog.transaction(async (manager) => {
      const runner = manager.queryRunner!;
      const wasSpam = await this.submissions.moveToFolder(
        formId,
        submissionId,
        false,
        [],
        runner,
      );
      if (!wasSpam) return false;
      await this.outbox.addEvent(
        // Marked, so no autoresponse answers it (autoresponse-channel.ts).
        [{ submissionId, payload: { _released: 'spam' } }],
        manager,
      );
      await during?.(manager);
      return true;
    });
    if (moved) this.signal.committed();
    return moved;
  }
}

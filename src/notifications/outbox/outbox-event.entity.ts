import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ID, TimestampColumn } from '../../common/database/columns.js';

/**
 * What one commit batch notifies about: the submissions of the batch whose form has
 * targets, written in the batch's transaction. The worker expands it into one delivery per
 * submission and target, and deletes it, in one transaction of its own (outbox.ts).
 */
@Entity('outbox_event')
export class OutboxEvent {
  /** ULID: events are expanded oldest first. */
  @PrimaryColumn(ID)
  id: string;

  /**
   * `[[submissionId], [submissionId, {"_subject": …, "_replyto": …}], …]`: each submission,
   * with the email control values it carried when there were any (they are not stored
   * with the submission). Text on SQLite and MariaDB, JSON on MySQL.
   */
  @Column({ type: 'json' })
  submissions: unknown;

  @TimestampColumn()
  createdAt: Date;
}

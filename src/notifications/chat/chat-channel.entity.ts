import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { ID, TimestampColumn } from '../../common/database/columns.js';
import type { ChatKind } from '../../config/reach-config.js';
import { Form } from '../../forms/form.entity.js';

/**
 * A team chat told of every submission of its form: a Slack or Discord webhook, a Teams
 * Workflows webhook, or a Telegram bot and chat. What reaches the provider (the URL, or
 * the bot token and chat id) is a secret: encrypted, never shown; `target` is what the
 * API shows of it (the host and the secret's last 4 characters).
 */
@Entity('chat_channel')
export class ChatChannel {
  /** 128 random bits, base64url. */
  @PrimaryColumn(ID)
  id: string;

  @Index('IDX_chat_channel_form')
  @Column(ID)
  formId: string;

  @ManyToOne(() => Form, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'formId' })
  form?: Form;

  @Column({ type: 'varchar', length: 16 })
  kind: ChatKind;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  /** Shown: the host and the last 4 characters of the secret part. */
  @Column({ type: 'varchar', length: 300 })
  target: string;

  /** JSON `{url}` or `{botToken, chatId}`, sealed with the secret box. */
  @Column({ type: 'varchar', length: 4096, select: false })
  secretEncrypted: string;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  /** Why the provider refused it (gone, blocked); null otherwise. */
  @Column({ type: 'varchar', length: 500, nullable: true })
  disabledReason: string | null;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn({ nullable: true })
  lastDeliveryAt: Date | null;
}

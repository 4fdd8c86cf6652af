import type { AutoresponseSettings } from './settings/autoresponse-settings.js';
import {
  BeforeInsert,
  BeforeUpdate,
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { Account } from '../accounts/account.entity.js';
import { ID, TimestampColumn } from '../common/database/columns.js';
import type {
  CaptchaSettings,
  SpamFilterSettings,
} from './settings/spam-settings.js';

export const FIELD_TYPES = [
  'text',
  'email',
  'textarea',
  'number',
  'url',
  'tel',
  'date',
  'select',
  'checkbox',
  'file',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export interface FieldDefinition {
  id: string;
  type: FieldType;
  label?: string;
  required?: boolean;
  maxLength?: number;
  options?: string[];
  /** `file` fields: the largest file in bytes, the formats accepted, files per submission. */
  maxSize?: number;
  accept?: string[];
  maxFiles?: number;
}

@Entity('form')
export class Form {
  /** Public identifier: 128 random bits, base64url. */
  @PrimaryColumn(ID)
  id: string;

  @Index()
  @Column(ID)
  accountId: string;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'accountId' })
  account?: Account;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'json' })
  fields: FieldDefinition[];

  @Column({ type: 'boolean', default: false })
  domainVerification: boolean;

  /**
   * Addresses told of every submission once each has confirmed (lower-case, at most 10);
   * null when none was ever set.
   */
  @Column({ type: 'json', nullable: true })
  notifyEmails: string[] | null;

  /** SHA-256 of the form's API key (prefix `fgk_`), hex: the only lookup path. */
  @Index('UQ_form_api_key_hash', { unique: true })
  @Column({ type: 'varchar', length: 64, select: false })
  apiKeyHash: string;

  /** AES-256-GCM encrypted copy of the key under APP_SECRET, so the dashboard can show it. */
  @Column({ type: 'varchar', length: 255, select: false })
  apiKeyEncrypted: string;

  @Column({ type: 'varchar', length: 16 })
  apiKeyPrefix: string;

  /**
   * When the current key stops working, or null for never: a key created or rotated by an
   * expiring key expires with it (docs/lifecycle.md).
   */
  @TimestampColumn({ nullable: true })
  apiKeyExpiresAt: Date | null;

  /** When the current key was last used (recorded at most once a minute), or null. */
  @TimestampColumn({ nullable: true })
  apiKeyLastUsedAt: Date | null;

  /**
   * After a rotation with a grace period, the replaced key's hash: it keeps matching
   * until previousApiKeyExpiresAt, so clients can move over without downtime.
   */
  @Index('IDX_form_previous_api_key_hash')
  @Column({ type: 'varchar', length: 64, nullable: true, select: false })
  previousApiKeyHash: string | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  previousApiKeyPrefix: string | null;

  @TimestampColumn({ nullable: true })
  previousApiKeyExpiresAt: Date | null;

  @TimestampColumn({ nullable: true })
  previousApiKeyLastUsedAt: Date | null;

  /**
   * How many posts the honeypot turned away since the form was created. Only the count is
   * kept: a trapped post is never stored. Written by the submit path's commit queue.
   */
  @Column({ type: 'integer', default: 0 })
  honeypotHits: number;

  /** Where a browser posting the form natively is sent after a success (303), or null. */
  @Column({ type: 'varchar', length: 2048, nullable: true })
  redirectUrl: string | null;

  /** The thank-you page's text for a native form post, or null for the default. */
  @Column({ type: 'varchar', length: 500, nullable: true })
  successMessage: string | null;

  /**
   * Days a submission is kept, then deleted by the "retention" sweep (docs/sweeps.md);
   * null keeps them until deleted.
   */
  @Column({ type: 'integer', nullable: true })
  retentionDays: number | null;

  /** The CAPTCHA submissions must pass (spam-settings.ts), or null for none. */
  @Column({ type: 'json', nullable: true })
  captcha: CaptchaSettings | null;

  /** The third-party provider's secret, AES-256-GCM under APP_SECRET; never shown. */
  @Column({ type: 'varchar', length: 1024, nullable: true, select: false })
  captchaSecretEncrypted: string | null;

  /** The mail back to whoever submitted (autoresponse-settings.ts), or null for none. */
  @Column({ type: 'json', nullable: true })
  autoresponse: AutoresponseSettings | null;

  /** The content rules; null means the defaults (DEFAULT_SPAM_FILTER). */
  @Column({ type: 'json', nullable: true })
  spamFilter: SpamFilterSettings | null;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;

  @BeforeInsert()
  protected stampInsert(): void {
    this.createdAt ??= new Date();
    this.updatedAt ??= this.createdAt;
  }

  @BeforeUpdate()
  protected stampUpdate(): void {
    this.updatedAt = new Date();
  }
}

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
import { ID, TimestampColumn } from '../../common/database/columns.js';
import { Form } from '../../forms/form.entity.js';

/** A URL that receives a signed POST for every submission of its form. */
@Entity('webhook')
export class Webhook {
  /** 128 random bits, base64url. */
  @PrimaryColumn(ID)
  id: string;

  @Index()
  @Column(ID)
  formId: string;

  @ManyToOne(() => Form, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'formId' })
  form?: Form;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  description: string | null;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  /** Why the service turned the webhook off (410, days of failures); null otherwise. */
  @Column({ type: 'varchar', length: 500, nullable: true })
  disabledReason: string | null;

  /** The signing secret (`whsec_…`), encrypted with the secret box. */
  @Column({ type: 'varchar', length: 255, select: false })
  secretEncrypted: string;

  /** The secret before the last rotation, still signing until previousSecretExpiresAt. */
  @Column({ type: 'varchar', length: 255, nullable: true, select: false })
  previousSecretEncrypted: string | null;

  @TimestampColumn({ nullable: true })
  previousSecretExpiresAt: Date | null;

  /** Start of the current run of failed attempts; null after a success. */
  @TimestampColumn({ nullable: true })
  failingSince: Date | null;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;

  @BeforeInsert()
  protected stampInsert(): void {
    const now = new Date();
    this.createdAt ??= now;
    this.updatedAt ??= now;
  }

  @BeforeUpdate()
  protected stampUpdate(): void {
    this.updatedAt = new Date();
  }
}

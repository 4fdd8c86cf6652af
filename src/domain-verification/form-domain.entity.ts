import {
  BeforeInsert,
  Column,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  Unique,
} from 'typeorm';
import { ID, TimestampColumn } from '../common/database/columns.js';
import { Form } from '../forms/form.entity.js';

export type DomainStatus = 'pending' | 'verified';

/** A domain a form accepts submissions from once its DNS TXT proof is verified. */
@Entity('form_domain')
@Unique('UQ_form_domain_form_domain', ['formId', 'domain'])
export class FormDomain {
  @PrimaryColumn(ID)
  id: string;

  @Column(ID)
  formId: string;

  @ManyToOne(() => Form, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'formId' })
  form?: Form;

  /** Lower-case, IDNA (ASCII) host name. */
  @Column({ type: 'varchar', length: 253 })
  domain: string;

  @Column({ type: 'varchar', length: 64 })
  token: string;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: DomainStatus;

  @TimestampColumn({ nullable: true })
  verifiedAt: Date | null;

  @TimestampColumn({ nullable: true })
  lastCheckedAt: Date | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  lastError: string | null;

  @TimestampColumn()
  createdAt: Date;

  @BeforeInsert()
  protected stampInsert(): void {
    this.createdAt ??= new Date();
  }
}

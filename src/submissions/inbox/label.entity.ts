import {
  BeforeInsert,
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { Account } from '../../accounts/account.entity.js';
import { ID, TimestampColumn } from '../../common/database/columns.js';

/** The fixed palette a label's colour comes from (DESIGN 20). */
export const LABEL_COLORS = [
  'gray',
  'red',
  'orange',
  'yellow',
  'green',
  'teal',
  'blue',
  'indigo',
  'purple',
  'pink',
] as const;

export type LabelColor = (typeof LABEL_COLORS)[number];

export const LABEL_NAME_MAX = 40;

/** One of an account's labels, put on its submissions (submission_label). */
@Entity('label')
@Index('UQ_label_account_name', ['accountId', 'name'], { unique: true })
export class Label {
  @PrimaryColumn(ID)
  id: string;

  @Column(ID)
  accountId: string;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'accountId' })
  account?: Account;

  @Column({ type: 'varchar', length: LABEL_NAME_MAX })
  name: string;

  @Column({ type: 'varchar', length: 16 })
  color: LabelColor;

  @TimestampColumn()
  createdAt: Date;

  @BeforeInsert()
  protected stampInsert(): void {
    this.createdAt ??= new Date();
  }
}

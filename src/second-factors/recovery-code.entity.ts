import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { User } from '../accounts/user.entity.js';
import { ID, TimestampColumn } from '../common/database/columns.js';

/** One of a user's recovery codes: only its SHA-256 is kept; each works once. */
@Entity('recovery_code')
export class RecoveryCode {
  @PrimaryColumn(ID)
  id: string;

  @Index('IDX_recovery_code_user')
  @Column(ID)
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'userId' })
  user?: User;

  @Column({ type: 'varchar', length: 64, select: false })
  codeHash: string;

  @TimestampColumn({ nullable: true })
  usedAt: Date | null;

  @TimestampColumn()
  createdAt: Date;
}

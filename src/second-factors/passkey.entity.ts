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

/** A WebAuthn credential (passkey) of a user: its public key, counter and transports. */
@Entity('passkey')
export class Passkey {
  @PrimaryColumn(ID)
  id: string;

  @Index('IDX_passkey_user')
  @Column(ID)
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'userId' })
  user?: User;

  /** The credential id, base64url. */
  @Index('UQ_passkey_credential', { unique: true })
  @Column({ type: 'varchar', length: 255 })
  credentialId: string;

  /** The COSE public key, base64url. */
  @Column({ type: 'text' })
  publicKey: string;

  @Column({
    type: 'bigint',
    transformer: {
      to: (v: number) => v,
      from: (v: string | number) => Number(v),
    },
  })
  counter: number;

  /** Comma-separated authenticator transports (`internal`, `usb`, `hybrid`…). */
  @Column({ type: 'varchar', length: 255, default: '' })
  transports: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn({ nullable: true })
  lastUsedAt: Date | null;
}

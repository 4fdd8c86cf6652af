import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { User } from '../accounts/user.entity.js';
import { ID, TimestampColumn } from '../common/database/columns.js';

/**
 * A user's TOTP authenticator (RFC 6238). The secret is sealed by the secret box; until
 * the user confirms a code (`confirmedAt`), it is only being set up and signs in nothing.
 */
@Entity('user_totp')
export class UserTotp {
  @PrimaryColumn(ID)
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'userId' })
  user?: User;

  /** The base32 secret, encrypted (`v1.<iv>.<tag>.<data>`). */
  @Column({ type: 'varchar', length: 255, select: false })
  secretSealed: string;

  @TimestampColumn({ nullable: true })
  confirmedAt: Date | null;

  /** The time step of the last code accepted: a code of it or before is refused (replay). */
  @Column({ type: 'integer', nullable: true })
  lastStep: number | null;

  @TimestampColumn()
  createdAt: Date;
}

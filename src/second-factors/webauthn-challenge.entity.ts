import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../common/database/columns.js';

export type ChallengePurpose = 'register' | 'sign-in' | 'second-factor';

/**
 * A WebAuthn challenge handed to a browser, kept server-side until it is answered (then
 * deleted: single use) or expires. Keyed by the SHA-256 of the challenge, which the
 * browser's signed client data carries back.
 */
@Entity('webauthn_challenge')
export class WebauthnChallenge {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  challengeHash: string;

  @Column({ type: 'varchar', length: 16 })
  purpose: ChallengePurpose;

  /** Whose registration or second step it is; null for a passkey-alone sign-in. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  userId: string | null;

  @TimestampColumn()
  expiresAt: Date;
}

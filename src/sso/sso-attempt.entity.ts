import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { ID, TimestampColumn } from '../common/database/columns.js';

/**
 * One SSO sign-in under way: what the callback must match (state, nonce, the PKCE
 * verifier), kept server-side, short-lived and used once. The row is keyed by the
 * SHA-256 of the state; the state itself is only in the browser's cookie and the
 * provider's redirect.
 */
@Entity('sso_attempt')
export class SsoAttempt {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  stateHash: string;

  @Column(ID)
  accountId: string;

  @Column({ type: 'varchar', length: 128 })
  nonce: string;

  /** SecretBoxService-sealed PKCE code verifier. */
  @Column({ type: 'varchar', length: 500 })
  codeVerifierEncrypted: string;

  /** The issuer the attempt started with: the callback must come from the same one. */
  @Column({ type: 'varchar', length: 500 })
  issuerUrl: string;

  @TimestampColumn()
  createdAt: Date;

  @Index('IDX_sso_attempt_expires')
  @TimestampColumn()
  expiresAt: Date;
}

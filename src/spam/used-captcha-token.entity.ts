import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { ID, TimestampColumn } from '../common/database/columns.js';

/**
 * A CAPTCHA answer that was accepted (an ALTCHA challenge's signature, a provider's
 * token), as a SHA-256: inserting it is what accepts it, so a second use — on any
 * instance — is refused by the primary key. Kept until the answer would have expired
 * anyway, then swept.
 */
@Entity('used_captcha_token')
@Index('IDX_used_captcha_token_expires', ['expiresAt'])
export class UsedCaptchaToken {
  /** Hex SHA-256 of the provider and the answer. */
  @PrimaryColumn({ type: 'varchar', length: 64 })
  id: string;

  @TimestampColumn()
  expiresAt: Date;

  /** The batch of claims that wrote the row: who won an answer claimed in a batch. */
  @Column(ID)
  claim: string;
}

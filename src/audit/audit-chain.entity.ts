import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ID } from '../common/database/columns.js';

/**
 * The head of an account's audit chain, one row per account: the transaction recording an
 * event locks it, so two changes of one account at once chain one after the other. The
 * anchor is where verification starts: nothing at first, then the last event the retention
 * sweep deleted.
 */
@Entity('audit_chain')
export class AuditChain {
  @PrimaryColumn(ID)
  accountId: string;

  @Column({ type: 'integer' })
  headSeq: number;

  @Column({ type: 'varchar', length: 64 })
  headHash: string;

  @Column({ type: 'integer' })
  anchorSeq: number;

  @Column({ type: 'varchar', length: 64 })
  anchorHash: string;
}

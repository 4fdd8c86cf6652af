// `npm run cli -- audit:verify [--account ID]` (docs/audit.md#verifying): walks each
// account's chain from its anchor, recomputing every hash; the first event whose stored
// hash does not match — an edited row, or the one after a deleted row — is named, and so is
// a chain whose last event is missing.
import { Injectable } from '@nestjs/common';
import { AuditChainRepository } from './audit-chain.repository.js';
import { AuditEventRepository } from './audit-event.repository.js';
import { eventHash } from './audit-hash.js';
import { hashedOf } from './audit-log.service.js';

const WALK_BATCH = 500;

export interface ChainReport {
  accountId: string;
  events: number;
  /** Why the chain does not hold, naming the first event that does not match. */
  failure?: string;
}

export interface VerificationReport {
  ok: boolean;
  chains: ChainReport[];
}

@Injectable()
export class AuditChainChecker {
  constructor(
    private readonly events: AuditEventRepository,
    private readonly chainRows: AuditChainRepository,
  ) {}

  async verify(accountId?: string): Promise<VerificationReport> {
    const chains = await this.chainRows.chains(accountId);
    const reports: ChainReport[] = [];
    for (const chain of chains) {
      reports.push(await this.verifyChain(chain));
    }
    return { ok: reports.every((report) => !report.failure), chains: reports };
  }

  private async verifyChain(chain: {
    accountId: string;
    anchorSeq: number;
    anchorHash: string;
    headSeq: number;
    headHash: string;
  }): Promise<ChainReport> {
    const { accountId } = chain;
    let previousHash = chain.anchorHash;
    let lastSeq = Number(chain.anchorSeq);
    let events = 0;
    for (;;) {
      const batch = await this.events.chainAfter(
        accountId,
        lastSeq,
        WALK_BATCH,
      );
      for (const event of batch) {
        events++;
        if (eventHash(previousHash, hashedOf(event)) !== event.hash) {
          return {
            accountId,
            events,
            failure: `event ${event.id} (#${event.seq}, ${event.action}) does not match its hash: it was changed, or an event before it was deleted`,
          };
        }
        previousHash = event.hash;
        lastSeq = Number(event.seq);
      }
      if (batch.length < WALK_BATCH) break;
    }
    if (lastSeq !== Number(chain.headSeq) || previousHash !== chain.headHash) {
      return {
        accountId,
        events,
        failure: `the chain ends at #${lastSeq} but its head is #${chain.headSeq}: its last events were deleted`,
      };
    }
    return { accountId, events };
  }
}

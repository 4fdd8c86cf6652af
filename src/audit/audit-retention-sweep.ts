// The "audit" background sweep (docs/sweeps.md, docs/audit.md#retention): events older
// than AUDIT_RETENTION_DAYS are deleted oldest first (by id), in batches; for each account
// the last event a batch deletes becomes its chain's anchor in the same transaction, so
// verification still holds from there. Before that, it chains the events of changes in
// batches whose process died halfway (audit-run.ts), once they have been idle RUN_IDLE_MS.
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config.js';
import { inBatches } from '../sweeps/batches.js';
import type { SweepCounts } from '../sweeps/sweep.js';
import { SweepsService } from '../sweeps/sweeps.service.js';
import { AuditChainRepository } from './audit-chain.repository.js';
import { AuditEventRepository } from './audit-event.repository.js';
import { AuditLogService } from './audit-log.service.js';
import { AuditOpenEventRepository } from './audit-open-event.repository.js';
import { closeIdleRuns, RUN_IDLE_MS } from './audit-run.js';

const DAY_MS = 86_400_000;

@Injectable()
export class AuditRetentionSweep implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly events: AuditEventRepository,
    private readonly chains: AuditChainRepository,
    private readonly auditLog: AuditLogService,
    private readonly openEvents: AuditOpenEventRepository,
    private readonly sweeps: SweepsService,
  ) {}

  onModuleInit(): void {
    this.sweeps.register({
      name: 'audit',
      run: (signal) => this.sweepOnce(Date.now(), signal),
    });
  }

  /**
   * Chains the open events idle since `now` less RUN_IDLE_MS, then deletes every event
   * recorded before `now` less the retention.
   */
  async sweepOnce(
    now = Date.now(),
    signal?: AbortSignal,
  ): Promise<SweepCounts> {
    const interrupted = await closeIdleRuns(
      this.auditLog,
      this.openEvents,
      new Date(now - RUN_IDLE_MS),
      signal,
    );
    const cutoff = new Date(now - this.config.auditRetentionDays * DAY_MS);
    let events = 0;
    await inBatches(
      async (limit) => {
        const oldest = await this.events.oldestBefore(cutoff, limit);
        // Per account, through the newest of its events in the batch: a chain loses only
        // its beginning (events of one account are recorded in time order).
        const last = new Map<string, { seq: number; hash: string }>();
        for (const event of oldest) {
          const seen = last.get(event.accountId);
          if (!seen || Number(event.seq) > seen.seq) {
            last.set(event.accountId, {
              seq: Number(event.seq),
              hash: event.hash,
            });
          }
        }
        for (const [accountId, { seq, hash }] of last) {
          events += await this.auditLog.transaction(async (manager) => {
            await this.chains.moveAnchor(manager, accountId, seq, hash);
            return this.events.deleteThrough(manager, accountId, seq);
          });
        }
        return oldest.length;
      },
      {
        signal,
        onEventLoop: this.dataSource.options.type === 'better-sqlite3',
      },
    );
    return { events, interrupted };
  }
}

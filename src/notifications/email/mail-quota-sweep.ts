// The "mail-quotas" background sweep (docs/sweeps.md): a cap's row whose last mail went out
// more than QUIET_DAYS ago counts nothing any more (its day has passed, its quiet month
// too), so it is deleted; a later mail starts a fresh row exactly as that row would have
// gone on. Without it every address ever mailed kept its row for good.
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { inBatches } from '../../sweeps/batches.js';
import type { SweepCounts } from '../../sweeps/sweep.js';
import { SweepsService } from '../../sweeps/sweeps.service.js';
import { MailQuotas, QUIET_DAYS } from './mail-quotas.js';

const DAY_MS = 86_400_000;

@Injectable()
export class MailQuotaSweep implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly quotas: MailQuotas,
    private readonly sweeps: SweepsService,
  ) {}

  onModuleInit(): void {
    this.sweeps.register({
      name: 'mail-quotas',
      run: (signal) => this.sweepOnce(Date.now(), signal),
    });
  }

  /** Deletes every cap's row whose last mail went out QUIET_DAYS or more before `now`. */
  async sweepOnce(
    now = Date.now(),
    signal?: AbortSignal,
  ): Promise<SweepCounts> {
    const before = new Date(now - QUIET_DAYS * DAY_MS);
    const { sql } = this.quotas;
    let quotas = 0;
    await inBatches(
      async (limit) => {
        const found = sql.outlived(before, limit);
        const rows = (await this.dataSource.query(
          found.sql,
          found.params,
        )) as Array<{ subject: string }>;
        if (rows.length > 0) {
          const doomed = sql.deleteOutlived(
            rows.map((row) => row.subject),
            before,
          );
          quotas += await this.quotas.execute(doomed);
        }
        return rows.length;
      },
      {
        signal,
        onEventLoop: this.dataSource.options.type === 'better-sqlite3',
      },
    );
    return { quotas };
  }
}

// The "mail-quotas" background sweep (docs/sweeps.md): a cap's row whose last mail went out
// more than QUIET_DAYS ago counts nothing any more (its day has passed, its quiet month
// too), so it is deleted; a later mail starts a fresh row exactly as that row would have
// gone on. Without it every address ever mailed kept its row for good.
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { inBatches } from '../../sweeps/batches.js';
import type { SweepCounts } from '../../sweeps/sweep.js';
import { SweepsService } from '../../sweeps/sweeps.service.js';
import { QUIET_DAYS } from './mail-quota-limiter.js';
import { MailQuotaRepository } from './mail-quota.repository.js';

const DAY_MS = 86_400_000;

@Injectable()
export class MailQuotaSweep implements OnModuleInit {
  constructor(
    private readonly quotas: MailQuotaRepository,
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
    let quotas = 0;
    await inBatches(
      async (limit) => {
        const subjects = await this.quotas.outlived(before, limit);
        if (subjects.length > 0) {
          quotas += await this.quotas.deleteOutlived(subjects, before);
        }
        return subjects.length;
      },
      { signal, onEventLoop: this.quotas.onEventLoop },
    );
    return { quotas };
  }
}

// The "retention" background sweep (docs/sweeps.md): a form with `retentionDays` keeps its
// submissions — clean and spam — that many days, then they are deleted with what belongs
// to them. The sweep walks the forms that set it in pages, each form's expired rows in
// batches that take turns on the event loop.
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { FormRepository } from '../../forms/form.repository.js';
import type { SweepCounts } from '../../sweeps/sweep.js';
import { SweepsService } from '../../sweeps/sweeps.service.js';
import { SubmissionExpiryService } from './submission-expiry.service.js';

const DAY_MS = 86_400_000;
/** Forms read per page. */
const FORMS_PAGE = 500;

export interface RetentionSweepCounts extends SweepCounts {
  submissions: number;
}

@Injectable()
export class FormRetentionSweep implements OnModuleInit {
  constructor(
    private readonly forms: FormRepository,
    private readonly expiry: SubmissionExpiryService,
    private readonly sweeps: SweepsService,
  ) {}

  onModuleInit(): void {
    this.sweeps.register({
      name: 'retention',
      run: (signal) => this.sweepOnce(Date.now(), signal),
    });
  }

  /**
   * Deletes, for every form with a retention, its submissions created more than
   * `retentionDays` days before `now`.
   */
  async sweepOnce(
    now = Date.now(),
    signal?: AbortSignal,
  ): Promise<RetentionSweepCounts> {
    const options = this.expiry.batchOptions(signal);
    const counts: RetentionSweepCounts = { submissions: 0 };
    let after = '';
    for (;;) {
      const page = await this.forms.retainingAfter(after, FORMS_PAGE);
      for (const form of page) {
        const cutoff = new Date(now - form.retentionDays! * DAY_MS);
        for (const spam of [false, true]) {
          if (signal?.aborted) return counts;
          counts.submissions += await this.expiry.deleteCreatedBefore(
            form.id,
            spam,
            cutoff,
            options,
          );
        }
      }
      if (page.length < FORMS_PAGE) return counts;
      after = page[page.length - 1].id;
    }
  }
}

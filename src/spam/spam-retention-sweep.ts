// The "spam" background sweep (docs/sweeps.md): spam is kept SPAM_RETENTION_DAYS, then
// deleted. The sweep walks the forms in pages and deletes each form's expired spam in
// batches along the keyset index (the spam folder of a form is one range of it). It also
// forgets used CAPTCHA answers once they have expired (a replay is then refused by its
// expiry) and the counts of turned-away posts older than STATS_DAYS.
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { FormRepository } from '../forms/form.repository.js';
import { SubmissionExpiryService } from '../submissions/deletion/submission-expiry.service.js';
import { inBatches } from '../sweeps/batches.js';
import type { SweepCounts } from '../sweeps/sweep.js';
import { SweepsService } from '../sweeps/sweeps.service.js';
import { FormSpamStatRepository } from './form-spam-stat.repository.js';
import { utcDay } from './turned-away.js';
import { UsedCaptchaTokenRepository } from './used-captcha-token.repository.js';

const DAY_MS = 86_400_000;
/** Forms read per page. */
const FORMS_PAGE = 500;
/** Days of turned-away counts kept (the dashboard shows 30). */
export const STATS_DAYS = 60;

export interface SpamSweepCounts extends SweepCounts {
  submissions: number;
  captchaAnswers: number;
  dailyCounts: number;
}

@Injectable()
export class SpamRetentionSweep implements OnModuleInit {
  constructor(
    private readonly forms: FormRepository,
    private readonly expiry: SubmissionExpiryService,
    private readonly tokens: UsedCaptchaTokenRepository,
    private readonly stats: FormSpamStatRepository,
    private readonly config: AppConfig,
    private readonly sweeps: SweepsService,
  ) {}

  onModuleInit(): void {
    this.sweeps.register({
      name: 'spam',
      run: (signal) => this.sweepOnce(Date.now(), signal),
    });
  }

  /**
   * Deletes every submission in the spam folder created more than SPAM_RETENTION_DAYS
   * before `now`, the expired CAPTCHA answers and the old daily counts.
   */
  async sweepOnce(
    now = Date.now(),
    signal?: AbortSignal,
  ): Promise<SpamSweepCounts> {
    const options = this.expiry.batchOptions(signal);
    const cutoff = new Date(now - this.config.spam.spamRetentionDays * DAY_MS);
    const counts: SpamSweepCounts = {
      submissions: 0,
      captchaAnswers: 0,
      dailyCounts: 0,
    };
    let after = '';
    for (;;) {
      const page = await this.forms.idsAfter(after, FORMS_PAGE);
      for (const formId of page) {
        if (signal?.aborted) return counts;
        counts.submissions += await this.expiry.deleteCreatedBefore(
          formId,
          true,
          cutoff,
          options,
        );
      }
      if (page.length < FORMS_PAGE) break;
      after = page[page.length - 1];
    }
    const expiredBefore = new Date(now);
    await inBatches(async (limit) => {
      const expired = await this.tokens.expiredIds(expiredBefore, limit);
      if (expired.length > 0) {
        counts.captchaAnswers += await this.tokens.delete(expired);
      }
      return expired.length;
    }, options);
    counts.dailyCounts = await this.stats.deleteBefore(
      utcDay(now - STATS_DAYS * DAY_MS),
    );
    return counts;
  }
}

// Spam is kept SPAM_RETENTION_DAYS, then deleted. A sweep walks the forms in pages and
// deletes each form's expired spam in small batches along the keyset index (the spam
// folder of a form is one range of it), taking a turn on the event loop before each
// statement, so a sweep never holds the loop (SQLite) or long locks (MySQL). The same
// sweep forgets used CAPTCHA answers once they have expired (a replay is refused by
// their expiry then) and the counts of turned-away posts older than STATS_DAYS.
import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, LessThan, MoreThan, Repository } from 'typeorm';
import { takeTurn } from '../common/event-loop-turns.js';
import { AppConfig } from '../config/app-config.js';
import { Form } from '../forms/form.entity.js';
import { SubmissionRepository } from '../submissions/submission.repository.js';
import { FormSpamStat } from './form-spam-stat.entity.js';
import { utcDay } from './turned-away.js';
import { UsedCaptchaToken } from './used-captcha-token.entity.js';

/** Forms read per page, and submissions deleted per statement. */
export const SWEEP_BATCH = 500;
const DAY_MS = 86_400_000;
/** Until the shared sweep schedule exists: every five minutes, first soon after start. */
const SWEEP_EVERY_MS = 300_000;
const FIRST_SWEEP_MS = 10_000;
/** Days of turned-away counts kept (the dashboard shows 30). */
export const STATS_DAYS = 60;

@Injectable()
export class SpamRetention
  implements OnApplicationBootstrap, OnApplicationShutdown
{
  private readonly logger = new Logger('SpamRetention');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    @InjectRepository(Form) private readonly forms: Repository<Form>,
    @InjectRepository(UsedCaptchaToken)
    private readonly tokens: Repository<UsedCaptchaToken>,
    @InjectRepository(FormSpamStat)
    private readonly stats: Repository<FormSpamStat>,
    private readonly submissions: SubmissionRepository,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const run = () => {
      void this.sweepOnce().catch((error: unknown) =>
        this.logger.warn(
          `Spam retention sweep failed: ${(error as Error)?.message ?? String(error)}`,
        ),
      );
    };
    this.timer = setTimeout(() => {
      run();
      this.timer = setInterval(run, SWEEP_EVERY_MS);
      this.timer.unref();
    }, FIRST_SWEEP_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearTimeout(this.timer);
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /**
   * Deletes every submission that has been in the spam folder longer than
   * SPAM_RETENTION_DAYS (by its createdAt); answers how many. One sweep at a time.
   */
  sweepOnce(now = Date.now()): Promise<number> {
    this.running ??= this.sweep(now).finally(() => (this.running = undefined));
    return this.running;
  }

  private async sweep(now: number): Promise<number> {
    const cutoff = new Date(now - this.config.spam.spamRetentionDays * DAY_MS);
    let deleted = 0;
    let after = '';
    for (;;) {
      await takeTurn();
      const page = await this.forms.find({
        select: { id: true },
        where: { id: MoreThan(after) },
        order: { id: 'ASC' },
        take: SWEEP_BATCH,
      });
      for (const { id } of page) deleted += await this.sweepForm(id, cutoff);
      if (page.length < SWEEP_BATCH) break;
      after = page[page.length - 1].id;
    }
    if (deleted > 0) {
      this.logger.log(
        `Deleted ${deleted} spam submissions older than ${this.config.spam.spamRetentionDays} days`,
      );
    }
    await this.forgetExpiredTokens(new Date(now));
    await takeTurn();
    await this.stats.delete({
      day: LessThan(utcDay(now - STATS_DAYS * DAY_MS)),
    });
    return deleted;
  }

  private async forgetExpiredTokens(now: Date): Promise<void> {
    for (;;) {
      await takeTurn();
      const expired = await this.tokens.find({
        select: { id: true },
        where: { expiresAt: LessThan(now) },
        order: { expiresAt: 'ASC' },
        take: SWEEP_BATCH,
      });
      if (expired.length === 0) return;
      await this.tokens.delete({ id: In(expired.map((token) => token.id)) });
      if (expired.length < SWEEP_BATCH) return;
    }
  }

  private async sweepForm(formId: string, cutoff: Date): Promise<number> {
    let deleted = 0;
    for (;;) {
      await takeTurn();
      const ids = (
        await this.submissions.rows({
          formId,
          filters: { spam: true, to: cutoff },
          direction: 'ASC',
          limit: SWEEP_BATCH,
          columns: ['id'],
        })
      ).map((row) => row.id);
      if (ids.length === 0) return deleted;
      deleted += await this.submissions.deleteIds(formId, ids);
      if (ids.length < SWEEP_BATCH) return deleted;
    }
  }
}

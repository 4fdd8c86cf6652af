// Counts, per form and UTC day, the posts turned away without being stored: caught by
// the honeypot, or refused by the CAPTCHA (form_spam_stat). Counting costs a request
// nothing: counts gather in memory and are added to the table by one upsert per form and
// day, written after the requests that made them (a flood of refusals is one statement
// every few milliseconds, not one per request). They are statistics: counts a failing
// write could not add are dropped with a warning.
import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { isMissingReference } from '../common/database/driver-errors.js';
import { FormSpamStatRepository } from './form-spam-stat.repository.js';
import type { SpamStatCounts } from './form-spam-stat-sql.js';

export type TurnedAwayKind = 'honeypot' | 'captcha';

type Counts = SpamStatCounts;

/** YYYY-MM-DD of a time, in UTC. */
export function utcDay(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

@Injectable()
export class TurnedAwayCounter implements OnApplicationShutdown {
  private readonly logger = new Logger('TurnedAwayCounter');
  private pending = new Map<string, Counts>();
  private writing: Promise<void> | undefined;
  private scheduled = false;

  constructor(private readonly stats: FormSpamStatRepository) {}

  count(formId: string, kind: TurnedAwayKind, now = Date.now()): void {
    const day = utcDay(now);
    const key = `${formId}\n${day}`;
    let counts = this.pending.get(key);
    if (counts === undefined) {
      counts = { formId, day, honeypot: 0, captcha: 0 };
      this.pending.set(key, counts);
    }
    counts[kind] += 1;
    this.schedule();
  }

  /** Resolves once every count made so far is written (or dropped). */
  async flushed(): Promise<void> {
    while (this.writing !== undefined || this.pending.size > 0) {
      await (this.writing ?? this.write());
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.flushed();
  }

  private schedule(): void {
    if (this.scheduled || this.writing !== undefined) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.writing === undefined) void this.write();
    });
  }

  private write(): Promise<void> {
    const rows = [...this.pending.values()];
    this.pending = new Map();
    this.writing = this.upsert(rows)
      .catch((error: unknown) =>
        this.logger.warn(
          `Could not record ${rows.length} counts of turned-away posts: ${(error as Error)?.message ?? String(error)}`,
        ),
      )
      .finally(() => {
        this.writing = undefined;
        if (this.pending.size > 0) this.schedule();
      });
    return this.writing;
  }

  private async upsert(rows: readonly Counts[]): Promise<void> {
    // One statement per form and day: a form deleted meanwhile fails its own row only.
    for (const row of rows) {
      try {
        await this.stats.add(row);
      } catch (error) {
        if (!isMissingReference(error)) throw error;
      }
    }
  }

  /** Turned away by the honeypot and by the CAPTCHA on the form since `firstDay`. */
  async since(
    formId: string,
    firstDay: string,
  ): Promise<{ honeypot: number; captcha: number }> {
    await this.flushed();
    return this.stats.since(formId, firstDay);
  }
}

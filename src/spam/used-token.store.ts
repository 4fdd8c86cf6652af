// "Accepted at most once", across instances: an accepted CAPTCHA answer is a row of
// used_captcha_token, and inserting that row is the acceptance — the primary key refuses
// a second insert of the same answer whichever instance tries, so two requests racing
// with one answer cannot both pass (a get followed by a set could). Claims made while a
// batch is being written are written together as the next batch: one statement on
// MySQL/MariaDB (per row only when some answer was already used), one transaction of
// prepared statements on SQLite (UsedCaptchaTokenRepository writes them).
import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DB_DEADLINE_MS } from '../common/database/database-deadline.js';
import { DatabaseStateService } from '../common/database/database-state.service.js';
import { isDatabaseUnavailable } from '../common/database/driver-errors.js';
import { ConnectionBusyError } from '../common/database/sqlite-statements.js';
import { TemporarilyUnavailableException } from '../common/errors/errors.js';
import type { TokenClaim } from './used-captcha-token-sql.js';
import {
  UsedCaptchaTokenRepository,
  type ClaimWriter,
} from './used-captcha-token.repository.js';

/** The row id of an answer: SHA-256 of the provider and the answer, hex. */
export function tokenId(provider: string, answer: string): string {
  return createHash('sha256').update(`${provider}:${answer}`).digest('hex');
}

interface Claim extends TokenClaim {
  resolve: (accepted: boolean) => void;
  reject: (error: unknown) => void;
}

const MAX_BATCH = 500;

function unavailable(): TemporarilyUnavailableException {
  return new TemporarilyUnavailableException(
    'Database unavailable, please retry shortly',
  );
}

@Injectable()
export class UsedTokenStore {
  private waiting: Claim[] = [];
  private writing = false;
  private scheduled = false;
  private writer: ClaimWriter | undefined;

  constructor(
    private readonly tokens: UsedCaptchaTokenRepository,
    private readonly database: DatabaseStateService,
  ) {}

  /**
   * Records the answer as used: true when this call was the first to use it, false
   * when it was used before (here or on another instance). Rejects with 503 when the
   * database cannot say within its deadline.
   */
  claim(id: string, expiresAt: Date): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.waiting.push({ id, expiresAt, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.writing) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.run();
    });
  }

  private async run(): Promise<void> {
    if (this.writing || this.waiting.length === 0) return;
    this.writing = true;
    const batch = this.waiting.splice(0, MAX_BATCH);
    let timer: NodeJS.Timeout | undefined;
    try {
      const writer = this.currentWriter();
      if (writer === undefined) throw unavailable();
      const accepted = await Promise.race([
        this.firstOfEach(batch, writer),
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => reject(unavailable()), DB_DEADLINE_MS);
        }),
      ]);
      batch.forEach((claim, i) => claim.resolve(accepted[i]));
    } catch (error) {
      const answer =
        error instanceof TemporarilyUnavailableException ||
        error instanceof ConnectionBusyError ||
        isDatabaseUnavailable(error)
          ? unavailable()
          : error;
      for (const claim of batch) claim.reject(answer);
    } finally {
      clearTimeout(timer);
      this.writing = false;
      if (this.waiting.length > 0) this.schedule();
    }
  }

  /** The same answer twice in one batch: the first claim wins, the others lose. */
  private async firstOfEach(
    batch: readonly Claim[],
    writer: ClaimWriter,
  ): Promise<boolean[]> {
    const seen = new Set<string>();
    const unique: Claim[] = [];
    for (const claim of batch) {
      if (seen.has(claim.id)) continue;
      seen.add(claim.id);
      unique.push(claim);
    }
    const written = await writer(unique);
    const won = new Map(unique.map((claim, i) => [claim, written[i]]));
    return batch.map((claim) => won.get(claim) ?? false);
  }

  private currentWriter(): ClaimWriter | undefined {
    if (!this.database.isConnected) {
      this.writer = undefined;
      return undefined;
    }
    this.writer ??= this.tokens.claimWriter();
    return this.writer;
  }
}

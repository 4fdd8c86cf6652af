// Erasure and the data-subject export: every submission of an account that holds an
// email address (address-match.ts), found by walking each form's submissions along the
// keyset index in windows. On SQLite each window's statement runs on the event loop, so
// windows are sized to take a few milliseconds and each waits for its own turn
// (common/runtime/event-loop-turns.ts); a million submissions are searched without holding the
// loop. The address never reaches the log: only that an erasure ran, and its counts.
import { Injectable, Logger } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { SYSTEM_ACTOR, type AuditActor } from '../audit/audit-actor.js';
import {
  AuditLogService,
  type AuditRecord,
} from '../audit/audit-log.service.js';
import type { ApiPrincipal } from '../auth/principal.js';
import { AppConfig } from '../config/app-config.js';
import { Readable } from 'node:stream';
import { takeTurn } from '../common/runtime/event-loop-turns.js';
import { FormsService } from '../forms/forms.service.js';
import type { SubmissionPosition } from '../submissions/queries/cursor.js';
import { ndjsonLine } from '../submissions/export/submission-export.js';
import {
  lastMarked,
  SubmissionDeletionService,
  type DeletionProgress,
} from '../submissions/deletion/submission-deletion.service.js';
import { toDate } from '../common/database/sql-dates.js';
import { toData } from '../submissions/queries/submission-rows.js';
import { SubmissionRepository } from '../submissions/submission.repository.js';
import { dataHoldsAddress, normalizeAddress } from './address-match.js';

/** What one window's statement (and the check of its candidates) aims to take, in ms. */
export const ERASURE_TURN_MS = 8;
export const FIRST_ERASURE_WINDOW = 500;
export const MIN_ERASURE_WINDOW = 50;
/** Most submissions one statement examines. */
export const MAX_ERASURE_WINDOW = 5000;
/** Output is handed on in chunks of about this many characters. */
const EXPORT_CHUNK_CHARS = 32 * 1024;

/**
 * The next window: as many rows as the last one's rate fits in ERASURE_TURN_MS, at
 * most double, within the bounds. `busyMs` is the time the last window held the loop.
 */
export function nextErasureWindow(
  size: number,
  rows: number,
  busyMs: number,
): number {
  if (rows === 0) return size;
  const fitting =
    busyMs > 0 ? Math.floor((ERASURE_TURN_MS * rows) / busyMs) : Infinity;
  return Math.max(
    MIN_ERASURE_WINDOW,
    Math.min(MAX_ERASURE_WINDOW, size * 2, fitting),
  );
}

export interface ErasureResult {
  /** Submissions deleted (with dryRun: that would be). */
  deleted: number;
  /** Forms that had at least one of them. */
  forms: number;
}

/** The matching submissions of one window of one form. */
interface Matches {
  formId: string;
  ids: string[];
}

@Injectable()
export class ErasureService {
  private readonly logger = new Logger('Erasure');

  constructor(
    private readonly forms: FormsService,
    private readonly submissions: SubmissionRepository,
    private readonly deletion: SubmissionDeletionService,
    private readonly auditLog: AuditLogService,
    private readonly config: AppConfig,
  ) {}

  /** The address as the audit log names it: an HMAC under the app's secret, never the address. */
  addressHmac(email: string): string {
    return createHmac('sha256', this.config.appSecret)
      .update(`audit-erasure:${normalizeAddress(email)}`)
      .digest('hex');
  }

  /**
   * Deletes every submission of the account that holds `email` (with what belongs to
   * them), or with `dryRun` only counts them.
   */
  async erase(
    accountId: string,
    email: string,
    dryRun = false,
    by: ApiPrincipal | AuditActor = SYSTEM_ACTOR,
  ): Promise<ErasureResult> {
    const started = Date.now();
    let result: ErasureResult;
    if (dryRun) {
      const touched = new Set<string>();
      let found = 0;
      for await (const match of this.matches(accountId, email)) {
        if (match.ids.length === 0) continue;
        touched.add(match.formId);
        found += match.ids.length;
      }
      result = { deleted: found, forms: touched.size };
    } else {
      result = await this.eraseMatches(accountId, email, by);
    }
    const { deleted, forms } = result;
    this.logger.log(
      `${dryRun ? 'Erasure dry run' : 'Erasure'} for account ${accountId}: ${deleted} submission${deleted === 1 ? '' : 's'} ${dryRun ? 'found' : 'deleted'} in ${forms} form${forms === 1 ? '' : 's'} (${Date.now() - started} ms)`,
    );
    return result;
  }

  /**
   * Deletes the matches window by window as one change with one event: opened with the
   * first window that deletes, kept current in each, chained with the last
   * (docs/audit.md#changes-in-batches). Nothing matched: the run is still recorded.
   */
  private async eraseMatches(
    accountId: string,
    email: string,
    by: ApiPrincipal | AuditActor,
  ): Promise<ErasureResult> {
    const record: AuditRecord = {
      accountId,
      actor: by,
      action: 'erasure.run',
      target: { type: 'account', id: accountId },
    };
    const addressHmac = this.addressHmac(email);
    const details = ({ count, forms }: DeletionProgress) => ({
      count,
      forms,
      addressHmac,
    });
    const run = this.auditLog.openRun(record);
    const progress = await this.deletion.deleteBatches(
      lastMarked(this.matches(accountId, email)),
      run,
      details,
    );
    if (!run.started) {
      await this.auditLog.recordAlone({
        ...record,
        details: details(progress),
      });
    }
    return { deleted: progress.count, forms: progress.forms };
  }

  /**
   * The account's submissions that hold `email`, as NDJSON (one Submission per line,
   * form by form, oldest first), produced window by window as the stream is read. The
   * forms are read before this resolves, so a database failure still becomes a status.
   */
  async openExport(
    accountId: string,
    email: string,
    by: ApiPrincipal | AuditActor = SYSTEM_ACTOR,
  ): Promise<Readable> {
    const formIds = await this.forms.idsOfAccount(accountId);
    // Handing a person's data out is an export: that it was asked for is the event (the
    // address only as its HMAC, as for an erasure).
    await this.auditLog.recordAlone({
      accountId,
      actor: by,
      action: 'submissions.exported',
      target: { type: 'account', id: accountId },
      details: {
        format: 'ndjson',
        dataSubject: true,
        addressHmac: this.addressHmac(email),
      },
    });
    return Readable.from(this.exportChunks(accountId, formIds, email), {
      objectMode: true,
      highWaterMark: 4,
    });
  }

  private async *exportChunks(
    accountId: string,
    formIds: string[],
    email: string,
  ): AsyncGenerator<string> {
    let chunk = '';
    let exported = 0;
    for await (const { formId, ids } of this.matches(
      accountId,
      email,
      formIds,
    )) {
      if (ids.length === 0) continue;
      for (const row of await this.submissions.rowsByIds(formId, ids)) {
        chunk += ndjsonLine(row);
        exported++;
      }
      if (chunk.length >= EXPORT_CHUNK_CHARS) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk !== '') yield chunk;
    this.logger.log(
      `Data-subject export for account ${accountId}: ${exported} submission${exported === 1 ? '' : 's'}`,
    );
  }

  /** Window by window, the submissions of the account's forms that hold `email`. */
  private async *matches(
    accountId: string,
    email: string,
    formIds?: string[],
  ): AsyncGenerator<Matches> {
    const address = normalizeAddress(email);
    for (const formId of formIds ??
      (await this.forms.idsOfAccount(accountId))) {
      // Folder by folder: each is one range of the keyset index, read in its order.
      for (const spam of [false, true]) {
        yield* this.folderMatches(formId, spam, address);
      }
    }
  }

  /** Window by window, the submissions of one folder of a form that hold `address`. */
  private async *folderMatches(
    formId: string,
    spam: boolean,
    address: string,
  ): AsyncGenerator<Matches> {
    const onLoop = this.submissions.isSqlite;
    let after: SubmissionPosition | undefined;
    let limit = FIRST_ERASURE_WINDOW;
    for (;;) {
      await takeTurn();
      const started = performance.now();
      const rows = await this.submissions.addressWindow(
        formId,
        spam,
        after,
        limit,
        address,
      );
      const ids = rows
        .filter(
          (row) =>
            row.data !== null &&
            row.data !== undefined &&
            dataHoldsAddress(toData(row.data), address),
        )
        .map((row) => row.id);
      const busyMs = onLoop ? performance.now() - started : 0;
      // Empty too: an erasure says it is still at work between deletions.
      yield { formId, ids };
      if (rows.length < limit) return;
      const last = rows[rows.length - 1];
      after = { createdAt: toDate(last.createdAt), id: last.id };
      limit = nextErasureWindow(limit, rows.length, busyMs);
    }
  }
}

// The Idempotency-Key records, in the database so that every instance sees them. A request
// with a key is looked up here first: a kept answer is given again, a different request
// with the same key is refused, a request still in flight is asked to retry. The API claims
// its key (a row without an answer) before doing the work and completes it after; submit
// writes its row with the submission, in the commit queue's batch (submit.service.ts).
// The statements are IdempotencyRecordRepository's.
import { Injectable } from '@nestjs/common';
import { isUniqueViolation } from '../common/database/driver-errors.js';
import { SecretBoxService } from '../auth/secret-box.service.js';
import { IdempotencyRecordRepository } from './idempotency-record.repository.js';
import { IDEMPOTENCY_TTL_MS, IN_FLIGHT_TTL_MS } from './idempotency-key.js';

/** A 2xx answer as kept: its status and its body as JSON text ('' for none). */
export interface KeptAnswer {
  status: number;
  body: string;
}

/** What a key holds now. */
export type KeyState =
  | { state: 'free' }
  | { state: 'in-flight'; fingerprint: string }
  | { state: 'answered'; fingerprint: string; answer: KeptAnswer };

/** A completed record as the submit batch writes it (idempotency_record's columns). */
export interface NewIdempotencyRecord {
  id: string;
  fingerprint: string;
  status: number;
  /** The sealed answer as a JSON string. */
  response: string;
  createdAt: Date;
  expiresAt: Date;
}

@Injectable()
export class IdempotencyStore {
  /** Sealed copies of the constant answers submit keeps, by their text. */
  private readonly sealedAnswers = new Map<string, string>();

  constructor(
    private readonly records: IdempotencyRecordRepository,
    private readonly box: SecretBoxService,
  ) {}

  /** What the key holds now (an expired record counts as free). */
  async lookup(id: string, now = Date.now()): Promise<KeyState> {
    const row = await this.records.find(id, now);
    if (row === undefined) return { state: 'free' };
    if (row.status === null || row.status === undefined) {
      return { state: 'in-flight', fingerprint: row.fingerprint };
    }
    return {
      state: 'answered',
      fingerprint: row.fingerprint,
      answer: { status: Number(row.status), body: this.open(row.response) },
    };
  }

  /**
   * Claims the key for a request about to run: 'claimed' when this call inserted the
   * row, else what the key holds (an expired record is cleared and claimed over).
   */
  async claim(
    id: string,
    fingerprint: string,
    now = Date.now(),
  ): Promise<'claimed' | KeyState> {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await this.records.insertClaim(
          id,
          fingerprint,
          now,
          now + IN_FLIGHT_TTL_MS,
        );
        return 'claimed';
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
      const held = await this.lookup(id, now);
      if (held.state !== 'free') return held;
      await this.clearExpired(id, now);
    }
    return { state: 'in-flight', fingerprint };
  }

  /** Keeps the claimed request's 2xx answer for 24 hours. */
  async answer(
    id: string,
    answer: KeptAnswer,
    now = Date.now(),
  ): Promise<void> {
    await this.records.complete(
      id,
      answer.status,
      this.seal(answer.body),
      now + IDEMPOTENCY_TTL_MS,
    );
  }

  /** Lets the key go (the request failed: a corrected retry proceeds). */
  async releaseClaim(id: string): Promise<void> {
    await this.records.release(id);
  }

  /** Deletes the key's record if it has expired (before writing a new one). */
  async clearExpired(id: string, now = Date.now()): Promise<void> {
    await this.records.deleteExpired(id, now);
  }

  /**
   * The row the submit batch writes with a submission answered `answer`. Submit's answer is
   * the same text every time, so it is sealed once and its ciphertext copied into each row:
   * a copy tells nothing a fresh encryption of the same text would not, and costs nothing
   * per request.
   */
  completedRecord(
    id: string,
    fingerprint: string,
    answer: KeptAnswer,
    now: number,
  ): NewIdempotencyRecord {
    let response = this.sealedAnswers.get(answer.body);
    if (response === undefined) {
      response = this.seal(answer.body);
      if (this.sealedAnswers.size < 16) {
        this.sealedAnswers.set(answer.body, response);
      }
    }
    return {
      id,
      fingerprint,
      status: answer.status,
      response,
      createdAt: new Date(now),
      expiresAt: new Date(now + IDEMPOTENCY_TTL_MS),
    };
  }

  private seal(body: string): string {
    return JSON.stringify(this.box.encrypt(body));
  }

  /** MariaDB hands the JSON column back as its text, MySQL 8 parsed. */
  private open(response: unknown): string {
    const sealed =
      typeof response === 'string' && response.startsWith('"')
        ? (JSON.parse(response) as string)
        : String(response);
    return this.box.decrypt(sealed);
  }
}

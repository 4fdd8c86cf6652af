import {
  ForbiddenException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import {
  RetryLaterConflictException,
  TemporarilyUnavailableException,
  ValidationFailedException,
} from '../common/errors/errors.js';
import {
  IDEMPOTENCY_IN_FLIGHT,
  idempotencyRecordId,
  requestFingerprint,
} from '../idempotency/idempotency-key.js';
import { answerForTakenKey } from '../idempotency/idempotency.interceptor.js';
import {
  IdempotencyStore,
  type KeptAnswer,
  type NewIdempotencyRecord,
} from '../idempotency/idempotency.store.js';
import { SubmitResponseDto } from './dto/submit-response.dto.js';
import { decideOrigin } from '../domain-verification/origin-policy.js';
import { FORM_NOT_FOUND } from '../forms/forms.service.js';
import { outboxEntry } from '../notifications/outbox/outbox-entry.js';
import {
  CommitQueue,
  IdempotencyKeyTakenError,
  QueueFullException,
} from './commit/commit-queue.js';
import type { CommitItem } from './commit/submission-writer.js';
import type { UploadReceiver } from '../files/uploads/upload-receiver.js';
import { FormConfigCache, type SubmitForm } from './form-config.cache.js';
import { normalizeClientIp } from '../rate-limit/client-ip.js';
import { newUlid } from '../common/values/ulid.js';
import { fileFieldsOf, uploadsOf } from './multipart-body.js';
import {
  EMPTY_SUBMISSION_MESSAGE,
  isControlKey,
} from './submission-validator.js';
import type { SpamReason } from '../forms/settings/spam-settings.js';
import { CaptchaChecker } from '../spam/captcha-checker.js';
import { DuplicateChecker } from '../spam/duplicate-checker.js';
import { TurnedAwayCounter } from '../spam/turned-away.js';
import type { SubmissionData } from '../submissions/submission.entity.js';
import type { SubmitVerdict } from '../metrics/submission-outcome.js';

/** The spam trap: a hidden input people leave empty and form-filling bots do not. */
export const HONEYPOT_KEY = '_honeypot';
/** Formspree's name for the same trap, read on the Formspree-compatible route only. */
export const GOTCHA_KEY = '_gotcha';

/** Form ids are URL-safe and at most 32 characters: anything else cannot exist. */
export const FORM_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** Column sizes of the submission metadata (see submission.entity.ts). */
const MAX_IP = 45;
const MAX_USER_AGENT = 512;
const MAX_ORIGIN = 1024;

export interface SubmitRequest {
  formId: string;
  /** As parsed: a JSON value, a null-prototype object for form and multipart posts, or undefined. */
  body: unknown;
  ip: string | undefined;
  userAgent: string | undefined;
  origin: string | undefined;
  referer: string | undefined;
  /** The Idempotency-Key header's value, already checked (idempotencyKeyOf). */
  idempotencyKey?: string;
  /**
   * The Formspree-compatible route (`/f/:formId`): `_gotcha` is a honeypot too, and a body
   * without any field is refused as empty before the fields are checked.
   */
  formspree?: boolean;
}

/** The form the request was for, and the kept answer when it was a replay. */
export interface SubmitResult {
  form: SubmitForm;
  replayed?: KeptAnswer;
  /** Answered as a success, but stored as spam or caught by the honeypot. */
  verdict?: SubmitVerdict;
}

/** What an accepted submission answers, as kept for a replay. */
const RECEIVED_ANSWER: KeptAnswer = {
  status: 200,
  body: JSON.stringify(SubmitResponseDto.received()),
};

/** true when `_honeypot` (or `key`) is present and holds anything but an empty value. */
export function isHoneypotFilled(body: unknown, key = HONEYPOT_KEY): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return false;
  }
  if (!Object.hasOwn(body, key)) return false;
  const value = (body as Record<string, unknown>)[key];
  const filled = (item: unknown) =>
    item !== undefined && item !== null && item !== '';
  return Array.isArray(value) ? value.some(filled) : filled(value);
}

/** true for no body, or a flat body whose every key is a control key. */
function isEmptyBody(body: unknown): boolean {
  if (body === undefined || body === null) return true;
  if (typeof body !== 'object' || Array.isArray(body)) return false;
  for (const key in body) {
    if (Object.hasOwn(body, key) && !isControlKey(key)) return false;
  }
  return true;
}

function clip(value: string | null | undefined, max: number): string | null {
  if (value === undefined || value === null || value === '') return null;
  return value.length > max ? value.slice(0, max) : value;
}

/**
 * A public submission, checked in order — unknown form (404), domain (403), honeypot,
 * validation (400), CAPTCHA (400), content rules (spam) — after the rate limit, then
 * committed through the queue before the answer.
 */
@Injectable()
export class SubmitService {
  /** Idempotency-Key records of the submits in progress on this instance. */
  private readonly keysInFlight = new Set<string>();

  constructor(
    private readonly forms: FormConfigCache,
    private readonly queue: CommitQueue,
    private readonly duplicates: DuplicateChecker,
    private readonly captcha: CaptchaChecker,
    private readonly turnedAway: TurnedAwayCounter,
    private readonly keys: IdempotencyStore,
  ) {}

  /**
   * Resolves once the submission is committed (or trapped), or with the kept answer. Files
   * the body carried to storage are deleted before the answer unless they were committed.
   */
  submit(request: SubmitRequest): Promise<SubmitResult> {
    const uploads = uploadsOf(request.body);
    // A body without files (JSON, urlencoded) has nothing to clean up.
    if (uploads === undefined) return this.submitOnce(request);
    return this.submitWithFiles(request, uploads);
  }

  private async submitWithFiles(
    request: SubmitRequest,
    uploads: UploadReceiver,
  ): Promise<SubmitResult> {
    try {
      return await this.submitOnce(request);
    } finally {
      // What cannot be deleted now has no row: the orphan sweep's.
      await uploads.discard().catch(() => undefined);
    }
  }

  private async submitOnce(request: SubmitRequest): Promise<SubmitResult> {
    const form = FORM_ID.test(request.formId)
      ? await this.forms.get(request.formId)
      : null;
    if (form === null) throw new NotFoundException(FORM_NOT_FOUND);
    if (form.domainVerification) await this.checkOrigin(form, request);
    if (request.idempotencyKey === undefined) {
      return { form, verdict: await this.accept(form, request) };
    }
    return this.acceptOnce(form, request, request.idempotencyKey);
  }

  /**
   * With an Idempotency-Key: the key's record is written in the submission's batch, so a
   * new key costs no statement of its own. When the key turns out to be taken (the insert
   * finds its record) or the request fails, the key is looked up: a key already answered
   * gives its answer again instead of the failure (so a CAPTCHA answer used by the first
   * request does not fail the retry), another body with it → 422; an expired record is
   * cleared and the submission tried once more.
   */
  private async acceptOnce(
    form: SubmitForm,
    request: SubmitRequest,
    key: string,
  ): Promise<SubmitResult> {
    const id = idempotencyRecordId(`submit:${form.id}`, key);
    const fingerprint = requestFingerprint(
      'POST',
      request.formspree === true ? `/f/${form.id}` : `/api/submit/${form.id}`,
      request.body,
    );
    if (this.keysInFlight.has(id)) {
      throw new RetryLaterConflictException(IDEMPOTENCY_IN_FLIGHT, 1);
    }
    this.keysInFlight.add(id);
    try {
      // A CAPTCHA answer passes once: a retry of a request already answered is decided
      // before the check would try to spend it again (one lookup, only on such forms).
      if (form.captcha !== null) {
        const held = await this.keys.lookup(id);
        if (held.state !== 'free') {
          return { form, replayed: answerForTakenKey(held, fingerprint) };
        }
      }
      for (let attempt = 0; ; attempt++) {
        try {
          const verdict = await this.accept(form, request, (now) =>
            this.keys.completedRecord(id, fingerprint, RECEIVED_ANSWER, now),
          );
          return { form, verdict };
        } catch (error) {
          const held = await this.keys.lookup(id).catch(() => undefined);
          if (held === undefined) throw error;
          if (held.state !== 'free') {
            return { form, replayed: answerForTakenKey(held, fingerprint) };
          }
          if (!(error instanceof IdempotencyKeyTakenError)) throw error;
          // Taken by a record that has expired since (or a batch that rolled back).
          if (attempt > 0) {
            throw new RetryLaterConflictException(IDEMPOTENCY_IN_FLIGHT, 1);
          }
          await this.keys.clearExpired(id);
        }
      }
    } finally {
      this.keysInFlight.delete(id);
    }
  }

  /**
   * The checks after the origin, then the commit (with the key's record, if any); says
   * when what it answers as a success was spam or a bot caught by the honeypot.
   */
  private async accept(
    form: SubmitForm,
    request: SubmitRequest,
    keyRecord?: (now: number) => NewIdempotencyRecord,
  ): Promise<SubmitVerdict | undefined> {
    // A bot gets the very answer a person would, so it learns nothing.
    if (
      isHoneypotFilled(request.body) ||
      (request.formspree === true && isHoneypotFilled(request.body, GOTCHA_KEY))
    ) {
      this.turnedAway.count(form.id, 'honeypot');
      await this.queue.countHoneypotHit(form.id);
      return 'honeypot';
    }
    if (request.formspree === true && isEmptyBody(request.body)) {
      throw new ValidationFailedException(
        [EMPTY_SUBMISSION_MESSAGE],
        [{ code: 'EMPTY' }],
      );
    }
    const files = fileFieldsOf(request.body);
    if (files.length > 0) {
      throw new ValidationFailedException(
        files.map((name) => `${name}: file uploads are not accepted`),
        files.map(() => ({ code: 'NO_FILE_UPLOADS' })),
      );
    }
    const uploads = uploadsOf(request.body);
    const result = form.validate(request.body, uploads?.fieldsWithFiles());
    if (!result.ok) {
      throw new ValidationFailedException(result.errors, result.issues);
    }
    const origin =
      request.origin && request.origin !== 'null'
        ? request.origin
        : request.referer;
    const ip = clip(normalizeClientIp(request.ip), MAX_IP);
    // After validation, so a field to fix never uses the CAPTCHA answer up.
    const captcha =
      form.captcha === null
        ? 'passed'
        : await this.captcha.check(
            form.id,
            form.captcha,
            request.body,
            ip,
            form.domainVerification ? form.verifiedDomains : null,
          );
    const createdAt = Date.now();
    const reasons = await this.spamReasons(form, result.data, ip, createdAt);
    if (captcha !== 'passed') reasons.unshift(`captcha-${captcha}`);
    const spam = reasons.length > 0;
    const submission = {
      // Its files are already stored under the id they were given on arrival.
      id: uploads?.submissionId ?? newUlid(createdAt),
      formId: form.id,
      data: JSON.stringify({ ...result.data, ...uploads?.dataValues() }),
      ip,
      userAgent: clip(request.userAgent, MAX_USER_AGENT),
      origin: clip(origin, MAX_ORIGIN),
      createdAt: new Date(createdAt),
      spam,
      spamReasons: spam ? JSON.stringify(reasons) : null,
    };
    // Resolves once the row (and its notifications) are committed: the 200 is never sent
    // before that. Spam is stored and answered alike (a bot learns nothing), unnotified.
    await this.commit(uploads, {
      submission,
      outbox:
        form.notifies && !spam
          ? outboxEntry(submission.id, request.body)
          : undefined,
      idempotency: keyRecord?.(createdAt),
      files: uploads?.rows(form.accountId, new Date(createdAt)),
    });
    return spam ? 'spam' : undefined;
  }

  /** The commit; a submission with files keeps them once committed, or perhaps committed. */
  private async commit(
    uploads: UploadReceiver | undefined,
    item: CommitItem,
  ): Promise<void> {
    try {
      await this.queue.commit(item);
    } catch (error) {
      // Refused in time (503 past its deadline, the database away) the batch may still
      // commit: its files stay, for the orphan sweep to judge by their rows.
      if (
        error instanceof TemporarilyUnavailableException &&
        !(error instanceof QueueFullException)
      ) {
        if (uploads !== undefined) uploads.kept = true;
      }
      throw error;
    }
    if (uploads !== undefined) uploads.kept = true;
  }

  /** Why the content rules take the data for spam; [] (at no cost) when the filter is off. */
  private async spamReasons(
    form: SubmitForm,
    data: SubmissionData,
    ip: string | null,
    now: number,
  ): Promise<SpamReason[]> {
    const rules = form.contentRules;
    if (rules === null) return [];
    const reasons = rules.check(data);
    if (
      rules.duplicates &&
      (await this.duplicates.isDuplicate(form.id, ip, data, now))
    ) {
      return [...reasons, 'duplicate'];
    }
    return reasons;
  }

  private async checkOrigin(
    form: SubmitForm,
    request: SubmitRequest,
  ): Promise<void> {
    const decision = await decideOrigin(
      { origin: request.origin, referer: request.referer },
      () => form.verifiedDomains,
    );
    if (!decision.allowed) throw new ForbiddenException(decision.reason);
  }
}

import {
  ForbiddenException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { monotonicFactory } from 'ulid';
import { ValidationFailedException } from '../common/errors.js';
import { DomainVerificationService } from '../domain-verification/domain-verification.service.js';
import { FORM_NOT_FOUND, FormsService } from '../forms/forms.service.js';
import { SubmitResponseDto } from './dto/submit-response.dto.js';
import { normalizeClientIp } from '../rate-limit/client-ip.js';
import { SubmissionValidatorCache } from './submission-validator.js';
import { Submission } from '../submissions/submission.entity.js';

/** The spam trap: a hidden input people leave empty and form-filling bots do not. */
export const HONEYPOT_KEY = '_honeypot';

/** Form ids are URL-safe and at most 32 characters: anything else cannot exist. */
const FORM_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** Column sizes of the submission metadata (see submission.entity.ts). */
const MAX_IP = 45;
const MAX_USER_AGENT = 512;
const MAX_ORIGIN = 1024;

export interface SubmitRequest {
  formId: string;
  /** As parsed by Fastify: a JSON value, a null-prototype object for forms, or undefined. */
  body: unknown;
  ip: string | undefined;
  userAgent: string | undefined;
  origin: string | undefined;
  referer: string | undefined;
}

/** true when `_honeypot` is present and holds anything but an empty value. */
export function isHoneypotFilled(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return false;
  }
  if (!Object.hasOwn(body, HONEYPOT_KEY)) return false;
  const value = (body as Record<string, unknown>)[HONEYPOT_KEY];
  const filled = (item: unknown) =>
    item !== undefined && item !== null && item !== '';
  return Array.isArray(value) ? value.some(filled) : filled(value);
}

function clip(value: string | null | undefined, max: number): string | null {
  if (value === undefined || value === null || value === '') return null;
  return value.length > max ? value.slice(0, max) : value;
}

/** Runs a public submission through the checks of DESIGN §5 (after the rate limit) and stores it. */
@Injectable()
export class SubmitService {
  private readonly validators = new SubmissionValidatorCache();
  private readonly newId = monotonicFactory();

  constructor(
    private readonly forms: FormsService,
    private readonly domainVerification: DomainVerificationService,
    @InjectRepository(Submission)
    private readonly submissions: Repository<Submission>,
  ) {}

  async submit(request: SubmitRequest): Promise<SubmitResponseDto> {
    const form = FORM_ID.test(request.formId)
      ? await this.forms.findById(request.formId)
      : null;
    if (!form) throw new NotFoundException(FORM_NOT_FOUND);

    const refusal = await this.domainVerification.checkSubmitOrigin(form, {
      origin: request.origin,
      referer: request.referer,
    });
    if (refusal !== null) throw new ForbiddenException(refusal);

    // A bot gets the very answer a person would, so it learns nothing.
    if (isHoneypotFilled(request.body)) return SubmitResponseDto.received();

    const result = this.validators.get(form)(request.body);
    if (!result.ok) throw new ValidationFailedException(result.errors);

    const origin =
      request.origin && request.origin !== 'null'
        ? request.origin
        : request.referer;
    // Resolves once the row is committed: the 200 is never sent before that.
    await this.submissions.insert({
      id: this.newId(),
      formId: form.id,
      data: result.data,
      ip: clip(normalizeClientIp(request.ip), MAX_IP),
      userAgent: clip(request.userAgent, MAX_USER_AGENT),
      origin: clip(origin, MAX_ORIGIN),
      createdAt: new Date(),
    });
    return SubmitResponseDto.received();
  }
}

import {
  Controller,
  HttpCode,
  HttpStatus,
  Post,
  Req,
  Res,
  UnsupportedMediaTypeException,
  UseGuards,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  idempotencyKeyOf,
  REPLAYED_HEADER,
} from '../idempotency/idempotency-key.js';
import { markVerdict } from '../metrics/submission-outcome.js';
import { SubmitDocs } from './submit.openapi.js';
import { SubmitResponseDto } from './dto/submit-response.dto.js';
import { UnreadMultipart } from './multipart-parser.js';
import { SubmitThrottlerGuard } from './rate-limit/submit-throttler.guard.js';
import { sendSubmitted } from './submit-answer.js';
import { SubmitService } from './submit.service.js';
import {
  FORM_TYPE,
  JSON_TYPE,
  mediaTypeOf,
  MULTIPART_TYPE,
} from './submit-navigation.js';
import { Public } from '../auth/route-access.decorator.js';

/** Worded as Fastify's own 415 (error-response.ts), which answers every other type. */
const UNSUPPORTED_SUBMIT_TYPE =
  'Unsupported content type: send application/json or application/x-www-form-urlencoded';

const RECEIVED = SubmitResponseDto.received();

/**
 * The body's media type when the route reads it (JSON, form-encoded, multipart), or
 * undefined without a body; this keeps the route to those even if another parser is
 * ever registered globally.
 */
export function acceptedMediaType(request: FastifyRequest): string | undefined {
  const header = request.headers['content-type'];
  if (header === undefined) return undefined; // no body at all
  const type = mediaTypeOf(header);
  if (type !== JSON_TYPE && type !== FORM_TYPE && type !== MULTIPART_TYPE) {
    throw new UnsupportedMediaTypeException(UNSUPPORTED_SUBMIT_TYPE);
  }
  return type;
}

/**
 * The public submit route: POST /api/submit/:formId. Its rate limit is the throttler's
 * guard (a multipart body is read only after it: multipart-parser.ts); CORS: see
 * submit.setup.ts; what it answers — JSON, or the page or redirect a browser gets after a
 * native form post — submit-answer.ts. Unlike the other controllers it has no
 * request-deadline interceptor: the form cache and the commit queue bound their own
 * database work, and the hot path skips the interceptor machinery.
 */
@ApiTags('Submit')
@Public()
@Controller('api/submit')
@UseGuards(SubmitThrottlerGuard)
export class SubmitController {
  constructor(private readonly submitService: SubmitService) {}

  @Post(':formId')
  @HttpCode(HttpStatus.OK)
  @SubmitDocs()
  async submit(
    @Req() request: FastifyRequest<{ Params: { formId: string } }>,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    acceptedMediaType(request);
    // Read only now that the rate limit let the request through (multipart-parser.ts).
    if (request.body instanceof UnreadMultipart) {
      request.body = await request.body.read();
    }
    const idempotencyKey = idempotencyKeyOf(request.headers);
    const { form, replayed, verdict } = await this.submitService.submit({
      formId: request.params.formId,
      body: request.body,
      ip: request.ip,
      userAgent: request.headers['user-agent'],
      origin: request.headers.origin,
      referer: request.headers.referer,
      idempotencyKey,
    });
    markVerdict(request, verdict);
    // A repeat of a committed request: the kept answer, said to be one.
    if (replayed !== undefined) void reply.header(REPLAYED_HEADER, 'true');
    const body =
      replayed !== undefined && replayed.body !== ''
        ? (JSON.parse(replayed.body) as SubmitResponseDto)
        : RECEIVED;
    sendSubmitted(request, reply, body, form);
  }
}

import {
  Controller,
  HttpCode,
  HttpStatus,
  Post,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../../config/app-config.js';
import { markVerdict } from '../../metrics/submission-outcome.js';
import { UnreadMultipart } from '../multipart-parser.js';
import { SubmitThrottlerGuard } from '../rate-limit/submit-throttler.guard.js';
import {
  idempotencyKeyOf,
  REPLAYED_HEADER,
} from '../../idempotency/idempotency-key.js';
import { sendSubmitted } from '../submit-answer.js';
import { acceptedMediaType } from '../submit.controller.js';
import { SubmitService } from '../submit.service.js';
import { NEXT_KEY, thanksUrl } from './formspree-answers.js';
import { FormspreeSubmitDocs } from './formspree.openapi.js';
import type { FormspreeSuccessDto } from './formspree.dto.js';
import { Public } from '../../auth/route-access.decorator.js';

/**
 * The Formspree-compatible route, POST /f/:formId (docs/formspree.md): the submit path of
 * SubmitService with Formspree's control fields, behind the same rate-limit guard and
 * budget as SubmitController; its CORS is set by hooks (submit.setup.ts), its answers
 * shaped by submit-answer.ts (its errors as formspree-answers.ts says). Like
 * SubmitController it has no request-deadline interceptor: the form cache and the commit
 * queue bound their own database work. The thank-you page its success names:
 * formspree-thanks.controller.ts.
 */
@ApiTags('Submit')
@Public()
@Controller('f')
@UseGuards(SubmitThrottlerGuard)
export class FormspreeController {
  constructor(
    private readonly submitService: SubmitService,
    private readonly config: AppConfig,
  ) {}

  @Post(':formId')
  @HttpCode(HttpStatus.OK)
  @FormspreeSubmitDocs()
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
      formspree: true,
      idempotencyKey,
    });
    markVerdict(request, verdict);
    // A repeat of a committed request: the same success, said to be a replay.
    if (replayed !== undefined) void reply.header(REPLAYED_HEADER, 'true');
    const success: FormspreeSuccessDto = {
      ok: true,
      next: form.redirectUrl ?? thanksUrl(this.config.publicUrl, form.id),
    };
    sendSubmitted(request, reply, success, form, NEXT_KEY);
  }
}

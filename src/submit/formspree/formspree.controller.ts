import { Controller, HttpCode, HttpStatus, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ValidationFailedException } from '../../common/errors.js';
import { AppConfig } from '../../config/app-config.js';
import { acceptedMediaType } from '../submit.controller.js';
import { SubmitService } from '../submit.service.js';
import {
  answerWithPage,
  isNavigation,
  JSON_TYPE,
  redirectTarget,
} from '../submit-navigation.js';
import { NEXT_KEY, rememberIssues, thanksUrl } from './formspree-answers.js';
import { ApiFormspreeRoute } from './formspree-openapi.js';
import type { FormspreeSuccessDto } from './formspree.dto.js';

/**
 * The Formspree-compatible route, POST /f/:formId (docs/formspree.md): the submit path of
 * SubmitService with Formspree's control fields; its CORS, rate limit and the shape of its
 * errors are set by hooks (submit-cors.ts, formspree-answers.ts). Like SubmitController it
 * has no request-deadline interceptor: the form cache and the commit queue bound their own
 * database work. The thank-you page its success names: formspree-thanks.controller.ts.
 */
@ApiTags('Submit')
@Controller('f')
export class FormspreeController {
  constructor(
    private readonly submitService: SubmitService,
    private readonly config: AppConfig,
  ) {}

  @Post(':formId')
  @HttpCode(HttpStatus.OK)
  @ApiFormspreeRoute()
  async submit(
    @Req() request: FastifyRequest<{ Params: { formId: string } }>,
  ): Promise<FormspreeSuccessDto> {
    const type = acceptedMediaType(request);
    let form;
    try {
      form = await this.submitService.submit({
        formId: request.params.formId,
        body: request.body,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        origin: request.headers.origin,
        referer: request.headers.referer,
        formspree: true,
      });
    } catch (error) {
      // The onSend hook writes the answer; it needs each message's field and code.
      if (error instanceof ValidationFailedException && error.issues) {
        rememberIssues(request, error.issues);
      }
      throw error;
    }
    if (type !== JSON_TYPE && isNavigation(request.headers, type)) {
      answerWithPage(request, {
        location: redirectTarget(form, request.body, NEXT_KEY),
        message: form.successMessage,
      });
    }
    return {
      ok: true,
      next: form.redirectUrl ?? thanksUrl(this.config.publicUrl, form.id),
    };
  }
}

import {
  Controller,
  Get,
  HttpCode,
  HttpStatus,
  Post,
  Req,
  Res,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ValidationFailedException } from '../../common/errors.js';
import { toErrorResponse } from '../../common/error-response.js';
import { AppConfig } from '../../config/app-config.js';
import { FORM_NOT_FOUND } from '../../forms/forms.service.js';
import { FormConfigCache } from '../form-config.cache.js';
import {
  PAGE_HEADERS,
  refusalPage,
  thankYouPage,
} from '../pages/submit-pages.js';
import { acceptedMediaType } from '../submit.controller.js';
import { FORM_ID, SubmitService } from '../submit.service.js';
import {
  answerWithPage,
  isNavigation,
  JSON_TYPE,
  redirectTarget,
} from '../submit-navigation.js';
import { NEXT_KEY, rememberIssues, thanksUrl } from './formspree-answers.js';
import { ApiFormspreeRoute, ApiFormspreeThanks } from './formspree-openapi.js';
import type { FormspreeSuccessDto } from './formspree.dto.js';

/**
 * The Formspree-compatible route, POST /f/:formId (docs/formspree.md): the submit path of
 * SubmitService with Formspree's control fields; its CORS, rate limit and the shape of its
 * errors are set by hooks (submit-cors.ts, formspree-answers.ts). Also the thank-you page
 * its success names, GET /f/:formId/thanks.
 */
@ApiTags('Submit')
@Controller('f')
export class FormspreeController {
  constructor(
    private readonly submitService: SubmitService,
    private readonly forms: FormConfigCache,
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

  @Get(':formId/thanks')
  @ApiFormspreeThanks()
  async thanks(
    @Req() request: FastifyRequest<{ Params: { formId: string } }>,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const formId = request.params.formId;
    let status = 200;
    let page: string;
    try {
      const form = FORM_ID.test(formId) ? await this.forms.get(formId) : null;
      if (form === null) {
        status = 404;
        page = refusalPage(404, FORM_NOT_FOUND, undefined);
      } else {
        page = thankYouPage(form.successMessage, request.headers.referer);
      }
    } catch (error) {
      const answer = toErrorResponse(error);
      status = answer.status;
      page = refusalPage(answer.status, answer.body.error, undefined);
      void reply.headers(answer.headers);
    }
    void reply.code(status).headers(PAGE_HEADERS).send(page);
  }
}

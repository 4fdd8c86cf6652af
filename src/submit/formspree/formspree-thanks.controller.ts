import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { WithDeadline } from '../../common/http/deadline.interceptor.js';
import { toErrorResponse } from '../../common/errors/error-response.js';
import { FORM_NOT_FOUND } from '../../forms/forms.service.js';
import { FormConfigCache } from '../form-config.cache.js';
import {
  PAGE_HEADERS,
  refusalPage,
  thankYouPage,
} from '../pages/submit-pages.js';
import { FORM_ID } from '../submit.service.js';
import { FormspreeThanksDocs } from './formspree.openapi.js';
import { Public } from '../../auth/route-access.decorator.js';

/**
 * GET /f/:formId/thanks: the thank-you page POST /f/:formId names as `next` when the form
 * has no redirectUrl (the form's successMessage, else the default one).
 */
@ApiTags('Submit')
@WithDeadline()
@Public()
@Controller('f')
export class FormspreeThanksController {
  constructor(private readonly forms: FormConfigCache) {}

  @Get(':formId/thanks')
  @FormspreeThanksDocs()
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

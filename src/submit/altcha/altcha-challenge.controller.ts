import {
  Controller,
  Get,
  Header,
  NotFoundException,
  Param,
  UseGuards,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { WithDeadline } from '../../common/http/deadline.interceptor.js';
import { FORM_NOT_FOUND } from '../../forms/forms.service.js';
import { AltchaService } from '../../spam/altcha.service.js';
import { FormConfigCache } from '../form-config.cache.js';
import { AltchaChallengeDto } from './altcha-challenge.dto.js';
import { ChallengeRateLimitGuard } from './challenge-rate-limit.guard.js';
import {
  AltchaChallengeDocs,
  NOT_AN_ALTCHA_FORM,
} from './altcha-challenge.openapi.js';
import { Public } from '../../auth/route-access.decorator.js';

/** Form ids are URL-safe and at most 32 characters: anything else cannot exist. */
const FORM_ID = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * `GET /api/submit/:formId/challenge`: a fresh ALTCHA challenge for the form's widget.
 * Public, open to any origin (CORS `*`, see submit-cors.ts), with its own per-address
 * limit.
 */
@ApiTags('Submit')
@WithDeadline()
@Public()
@Controller('api/submit')
export class AltchaChallengeController {
  constructor(
    private readonly forms: FormConfigCache,
    private readonly altcha: AltchaService,
  ) {}

  @Get(':formId/challenge')
  @UseGuards(ChallengeRateLimitGuard)
  @Header('Cache-Control', 'no-store')
  @AltchaChallengeDocs()
  async challenge(
    @Param('formId') formId: string,
  ): Promise<AltchaChallengeDto> {
    const form = FORM_ID.test(formId) ? await this.forms.get(formId) : null;
    if (form === null) throw new NotFoundException(FORM_NOT_FOUND);
    if (form.captcha?.provider !== 'altcha') {
      throw new NotFoundException(NOT_AN_ALTCHA_FORM);
    }
    return this.altcha.challenge(form.id);
  }
}

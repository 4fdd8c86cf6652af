import {
  Controller,
  Get,
  Header,
  NotFoundException,
  Param,
  UseGuards,
} from '@nestjs/common';
import {
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { WithDeadline } from '../../common/deadline.interceptor.js';
import { ErrorDto } from '../../common/dto/error.dto.js';
import { FORM_NOT_FOUND } from '../../forms/forms.service.js';
import { Altcha } from '../../spam/altcha.js';
import { FormConfigCache } from '../form-config.cache.js';
import { AltchaChallengeDto } from './altcha-challenge.dto.js';
import {
  ChallengeRateLimitGuard,
  tooManyChallengesMessage,
} from './challenge-rate-limit.guard.js';
import { Public } from '../../auth/route-access.decorator.js';

export const NOT_AN_ALTCHA_FORM = 'This form does not use ALTCHA';

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
    private readonly altcha: Altcha,
  ) {}

  @Get(':formId/challenge')
  @UseGuards(ChallengeRateLimitGuard)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'An ALTCHA challenge for a form',
    description:
      "Public, any origin may call it (CORS `*`). The `altcha` widget fetches one from this address (its `challenge` attribute) and solves it in the visitor's browser; the solution travels with the submission in the `altcha` field and is accepted once. Challenges expire after ALTCHA_MAX_AGE_SECONDS (600 s). At most 60 a minute per client address.",
  })
  @ApiParam({
    name: 'formId',
    description: 'The form identifier.',
  })
  @ApiOkResponse({ type: AltchaChallengeDto })
  @ApiNotFoundResponse({
    type: ErrorDto,
    description: 'No such form, or the form does not use ALTCHA.',
    example: { error: NOT_AN_ALTCHA_FORM },
  })
  @ApiTooManyRequestsResponse({
    type: ErrorDto,
    description:
      'More than 60 challenges a minute from one address; retry after `Retry-After` seconds.',
    example: { error: tooManyChallengesMessage(42) },
    headers: {
      'Retry-After': {
        description: 'Seconds until the window resets.',
        schema: { type: 'integer' },
      },
    },
  })
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

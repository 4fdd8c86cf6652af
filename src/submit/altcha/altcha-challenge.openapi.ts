// The OpenAPI description of the ALTCHA challenge route.
import { applyDecorators } from '@nestjs/common';
import {
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { ErrorDto } from '../../common/dto/error.dto.js';
import { AltchaChallengeDto } from './altcha-challenge.dto.js';
import { tooManyChallengesMessage } from './challenge-rate-limit.guard.js';

export const NOT_AN_ALTCHA_FORM = 'This form does not use ALTCHA';

export const AltchaChallengeDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'An ALTCHA challenge for a form',
      description:
        "Public, any origin may call it (CORS `*`). The `altcha` widget fetches one from this address (its `challenge` attribute) and solves it in the visitor's browser; the solution travels with the submission in the `altcha` field and is accepted once. Challenges expire after ALTCHA_MAX_AGE_SECONDS (600 s). At most 60 a minute per client address.",
    }),
    ApiParam({
      name: 'formId',
      description: 'The form identifier.',
    }),
    ApiOkResponse({ type: AltchaChallengeDto }),
    ApiNotFoundResponse({
      type: ErrorDto,
      description: 'No such form, or the form does not use ALTCHA.',
      example: { error: NOT_AN_ALTCHA_FORM },
    }),
    ApiTooManyRequestsResponse({
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
    }),
  );

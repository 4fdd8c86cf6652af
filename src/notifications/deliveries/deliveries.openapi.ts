// The OpenAPI description of the deliveries route.
import { applyDecorators } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
} from '@nestjs/swagger';
import { ValidationErrorDto } from '../../common/dto/error.dto.js';
import {
  FORM_ID_PARAM,
  FORM_NOT_FOUND_RESPONSE,
} from '../../forms/routes/form-route.openapi.js';
import { DeliveryListResponseDto } from './dto/delivery-response.dto.js';

export const ListDeliveriesDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: "A form's notification deliveries",
      description:
        'Every channel (webhooks and email), newest first, `limit` per page (1–100, default 25).',
    }),
    ApiParam(FORM_ID_PARAM),
    ApiOkResponse({ type: DeliveryListResponseDto }),
    ApiBadRequestResponse({
      type: ValidationErrorDto,
      description: 'A bad `limit` or `cursor`.',
    }),
    ApiNotFoundResponse(FORM_NOT_FOUND_RESPONSE),
  );

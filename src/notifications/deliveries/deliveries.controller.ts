import { Controller, Get, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { ApiKeyAuth } from '../../auth/api-key-auth.decorator.js';
import { WithDeadline } from '../../common/deadline.interceptor.js';
import { ValidationErrorDto } from '../../common/dto/error.dto.js';
import {
  FORM_ID_PARAM,
  FORM_NOT_FOUND_RESPONSE,
} from '../../forms/form-route.openapi.js';
import { AccessibleForm } from '../../forms/accessible-form.decorator.js';
import type { Form } from '../../forms/form.entity.js';
import { DeliveriesService } from './deliveries.service.js';
import {
  DeliveryListResponseDto,
  ListDeliveriesQueryDto,
} from './dto/delivery-response.dto.js';
import { Requires } from '../../auth/route-access.decorator.js';

@ApiTags('webhooks')
@ApiKeyAuth()
@WithDeadline()
@Controller('api/v1/forms/:id/deliveries')
export class DeliveriesController {
  constructor(private readonly deliveries: DeliveriesService) {}

  @Get()
  @Requires('forms.read')
  @ApiOperation({
    summary: "A form's notification deliveries",
    description:
      'Every channel (webhooks and email), newest first, `limit` per page (1–100, default 25).',
  })
  @ApiParam(FORM_ID_PARAM)
  @ApiOkResponse({ type: DeliveryListResponseDto })
  @ApiBadRequestResponse({
    type: ValidationErrorDto,
    description: 'A bad `limit` or `cursor`.',
  })
  @ApiNotFoundResponse(FORM_NOT_FOUND_RESPONSE)
  async list(
    @AccessibleForm() form: Form,
    @Query() query: ListDeliveriesQueryDto,
  ): Promise<DeliveryListResponseDto> {
    return this.deliveries.list(form.id, query);
  }
}

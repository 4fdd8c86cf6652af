import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth } from '../../auth/api-key-auth.decorator.js';
import { WithDeadline } from '../../common/http/deadline.interceptor.js';
import { AccessibleForm } from '../../forms/routes/accessible-form.decorator.js';
import type { Form } from '../../forms/form.entity.js';
import { DeliveriesService } from './deliveries.service.js';
import {
  DeliveryListResponseDto,
  ListDeliveriesQueryDto,
} from './dto/delivery-response.dto.js';
import { ListDeliveriesDocs } from './deliveries.openapi.js';
import { Requires } from '../../auth/route-access.decorator.js';

@ApiTags('webhooks')
@ApiKeyAuth()
@WithDeadline()
@Controller('api/v1/forms/:id/deliveries')
export class DeliveriesController {
  constructor(private readonly deliveries: DeliveriesService) {}

  @Get()
  @Requires('forms.read')
  @ListDeliveriesDocs()
  async list(
    @AccessibleForm() form: Form,
    @Query() query: ListDeliveriesQueryDto,
  ): Promise<DeliveryListResponseDto> {
    return this.deliveries.list(form.id, query);
  }
}

import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Patch,
  Post,
  Query,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, Principal } from '../../auth/api-key-auth.decorator.js';
import type { ApiPrincipal } from '../../auth/principal.js';
import { WithDeadline } from '../../common/http/deadline.interceptor.js';
import { AccessibleForm } from '../../forms/routes/accessible-form.decorator.js';
import type { Form } from '../../forms/form.entity.js';
import { DeliveriesService } from '../deliveries/deliveries.service.js';
import {
  DeliveryListResponseDto,
  DeliveryResponseDto,
  ListDeliveriesQueryDto,
} from '../deliveries/dto/delivery-response.dto.js';
import { CreateWebhookDto, PatchWebhookDto } from './dto/webhook-input.dto.js';
import {
  CreatedWebhookResponseDto,
  WebhookListResponseDto,
  WebhookResponseDto,
  WebhookSecretDto,
} from './dto/webhook-response.dto.js';
import { WebhooksService } from './webhooks.service.js';
import {
  ListWebhooksDocs,
  CreateWebhookDocs,
  GetWebhookDocs,
  PatchWebhookDocs,
  DeleteWebhookDocs,
  RotateWebhookSecretDocs,
  TestWebhookDocs,
  ListWebhookDeliveriesDocs,
  RetryWebhookDeliveryDocs,
} from './webhooks.openapi.js';
import { Requires } from '../../auth/route-access.decorator.js';

@ApiTags('webhooks')
@ApiKeyAuth()
@WithDeadline()
@Controller('api/v1/forms/:id/webhooks')
export class WebhooksController {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly deliveries: DeliveriesService,
  ) {}

  @Get()
  @Requires('forms.read')
  @ListWebhooksDocs()
  async list(@AccessibleForm() form: Form): Promise<WebhookListResponseDto> {
    return { data: await this.webhooks.list(form.id) };
  }

  @Post()
  @Requires('notifications.manage')
  @HttpCode(HttpStatus.CREATED)
  @CreateWebhookDocs()
  async create(
    @Principal() principal: ApiPrincipal,
    @AccessibleForm() form: Form,
    @Body() body: CreateWebhookDto,
  ): Promise<CreatedWebhookResponseDto> {
    return this.webhooks.create(form.id, body, {
      accountId: form.accountId,
      actor: principal,
    });
  }

  @Get(':webhookId')
  @Requires('forms.read')
  @GetWebhookDocs()
  async get(
    @AccessibleForm() form: Form,
    @Param('webhookId') webhookId: string,
  ): Promise<WebhookResponseDto> {
    return this.webhooks.get(form.id, webhookId);
  }

  @Patch(':webhookId')
  @Requires('notifications.manage')
  @PatchWebhookDocs()
  async patch(
    @Principal() principal: ApiPrincipal,
    @AccessibleForm() form: Form,
    @Param('webhookId') webhookId: string,
    @Body() body: PatchWebhookDto,
  ): Promise<WebhookResponseDto> {
    return this.webhooks.patch(form.id, webhookId, body, {
      accountId: form.accountId,
      actor: principal,
    });
  }

  @Delete(':webhookId')
  @Requires('notifications.manage')
  @HttpCode(HttpStatus.NO_CONTENT)
  @DeleteWebhookDocs()
  async remove(
    @Principal() principal: ApiPrincipal,
    @AccessibleForm() form: Form,
    @Param('webhookId') webhookId: string,
  ): Promise<void> {
    await this.webhooks.remove(form.id, webhookId, {
      accountId: form.accountId,
      actor: principal,
    });
  }

  @Post(':webhookId/rotate-secret')
  @Requires('notifications.manage')
  @HttpCode(HttpStatus.OK)
  @RotateWebhookSecretDocs()
  async rotate(
    @Principal() principal: ApiPrincipal,
    @AccessibleForm() form: Form,
    @Param('webhookId') webhookId: string,
  ): Promise<WebhookSecretDto> {
    return this.webhooks.rotateSecret(form.id, webhookId, {
      accountId: form.accountId,
      actor: principal,
    });
  }

  @Post(':webhookId/test')
  @Requires('notifications.manage')
  @HttpCode(HttpStatus.ACCEPTED)
  @TestWebhookDocs()
  async test(
    @AccessibleForm() form: Form,
    @Param('webhookId') webhookId: string,
  ): Promise<DeliveryResponseDto> {
    return this.webhooks.test(form.id, webhookId);
  }

  @Get(':webhookId/deliveries')
  @Requires('forms.read')
  @ListWebhookDeliveriesDocs()
  async listDeliveries(
    @AccessibleForm() form: Form,
    @Param('webhookId') webhookId: string,
    @Query() query: ListDeliveriesQueryDto,
  ): Promise<DeliveryListResponseDto> {
    const hook = await this.webhooks.find(form.id, webhookId);
    return this.deliveries.list(form.id, query, hook.id);
  }

  @Post(':webhookId/deliveries/:deliveryId/retry')
  @Requires('notifications.manage')
  @HttpCode(HttpStatus.ACCEPTED)
  @RetryWebhookDeliveryDocs()
  async retry(
    @AccessibleForm() form: Form,
    @Param('webhookId') webhookId: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<DeliveryResponseDto> {
    const hook = await this.webhooks.find(form.id, webhookId);
    return this.deliveries.retry(form.id, deliveryId, hook.id);
  }
}

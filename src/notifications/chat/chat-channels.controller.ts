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
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, Principal } from '../../auth/api-key-auth.decorator.js';
import type { ApiPrincipal } from '../../auth/principal.js';
import { Requires } from '../../auth/route-access.decorator.js';
import { WithDeadline } from '../../common/http/deadline.interceptor.js';
import { AccessibleForm } from '../../forms/routes/accessible-form.decorator.js';
import type { Form } from '../../forms/form.entity.js';
import { DeliveryResponseDto } from '../deliveries/dto/delivery-response.dto.js';
import {
  CreateChatChannelDocs,
  DeleteChatChannelDocs,
  ListChatChannelsDocs,
  PatchChatChannelDocs,
  TestChatChannelDocs,
} from './chat-channels.openapi.js';
import { ChatChannelsService } from './chat-channels.service.js';
import {
  ChatChannelListResponseDto,
  ChatChannelResponseDto,
  CreateChatChannelDto,
  PatchChatChannelDto,
} from './dto/chat-channel.dto.js';

@ApiTags('chat channels')
@ApiKeyAuth()
@WithDeadline()
@Controller('api/v1/forms/:id/chat-channels')
export class ChatChannelsController {
  constructor(private readonly channels: ChatChannelsService) {}

  @Get()
  @Requires('forms.read')
  @ListChatChannelsDocs()
  async list(
    @AccessibleForm() form: Form,
  ): Promise<ChatChannelListResponseDto> {
    return { data: await this.channels.list(form.id) };
  }

  @Post()
  @Requires('notifications.manage')
  @HttpCode(HttpStatus.CREATED)
  @CreateChatChannelDocs()
  create(
    @Principal() principal: ApiPrincipal,
    @AccessibleForm() form: Form,
    @Body() body: CreateChatChannelDto,
  ): Promise<ChatChannelResponseDto> {
    return this.channels.create(form.id, body, {
      accountId: form.accountId,
      actor: principal,
    });
  }

  @Patch(':channelId')
  @Requires('notifications.manage')
  @PatchChatChannelDocs()
  patch(
    @Principal() principal: ApiPrincipal,
    @AccessibleForm() form: Form,
    @Param('channelId') channelId: string,
    @Body() body: PatchChatChannelDto,
  ): Promise<ChatChannelResponseDto> {
    return this.channels.patch(form.id, channelId, body, {
      accountId: form.accountId,
      actor: principal,
    });
  }

  @Delete(':channelId')
  @Requires('notifications.manage')
  @HttpCode(HttpStatus.NO_CONTENT)
  @DeleteChatChannelDocs()
  async remove(
    @Principal() principal: ApiPrincipal,
    @AccessibleForm() form: Form,
    @Param('channelId') channelId: string,
  ): Promise<void> {
    await this.channels.remove(form.id, channelId, {
      accountId: form.accountId,
      actor: principal,
    });
  }

  @Post(':channelId/test')
  @Requires('notifications.manage')
  @HttpCode(HttpStatus.ACCEPTED)
  @TestChatChannelDocs()
  test(
    @AccessibleForm() form: Form,
    @Param('channelId') channelId: string,
  ): Promise<DeliveryResponseDto> {
    return this.channels.test(form.id, channelId);
  }
}

import {
  Body,
  ConflictException,
  Controller,
  Param,
  Post,
  Res,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Requires } from '../../auth/route-access.decorator.js';
import { WithDeadline } from '../../common/http/deadline.interceptor.js';
import { TooManyRequestsException } from '../../common/errors/errors.js';
import { CHAT_KINDS, type ChatKind } from '../../config/reach-config.js';
import type { Form } from '../../forms/form.entity.js';
import { ChatChannelsService } from '../../notifications/chat/chat-channels.service.js';
import {
  Dashboard,
  memberPrincipal,
  type DashboardContext,
} from '../dashboard-context.js';
import { DashboardExceptionFilter } from '../dashboard-exception.filter.js';
import { textOf } from '../form-body.js';
import { refusalOf, sentence } from '../page-errors.js';
import { SignedInGuard } from '../session/dashboard.guards.js';
import { redirectToForm } from './form-links.js';
import { NotificationsPageBuilder } from './notifications-page.builder.js';
import { OwnedForm } from './owned-form.decorator.js';

/** The chat channels section of a form's Notifications tab: add, test, delete. */
@ApiExcludeController()
@WithDeadline()
@Controller('dashboard/forms/:formId/notifications/chat-channels')
@UseGuards(SignedInGuard)
@UseFilters(DashboardExceptionFilter)
export class DashboardChatChannelsController {
  constructor(
    private readonly channels: ChatChannelsService,
    private readonly pages: NotificationsPageBuilder,
  ) {}

  @Post()
  @Requires('notifications.manage')
  async create(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Body() body: unknown,
  ) {
    const kind = textOf(body, 'kind') as ChatKind;
    if (!(CHAT_KINDS as readonly string[]).includes(kind)) {
      return this.refused(
        reply,
        form,
        400,
        'Choose Slack, Discord, Teams or Telegram.',
      );
    }
    const name = textOf(body, 'chatName').trim() || undefined;
    try {
      await this.channels.create(
        form.id,
        kind === 'telegram'
          ? {
              kind,
              name,
              botToken: textOf(body, 'botToken').trim(),
              chatId: textOf(body, 'chatId').trim(),
            }
          : { kind, name, url: textOf(body, 'chatUrl').trim() },
        { accountId: form.accountId, actor: memberPrincipal(context) },
      );
    } catch (error) {
      const { status, messages } = refusalOf(error);
      return this.refused(
        reply,
        form,
        status,
        messages.map((message) => sentence(message)).join(' '),
      );
    }
    return redirectToForm(reply, form.id, {
      page: 'notifications',
      done: 'chat-added',
      anchor: 'chat-channels',
    });
  }

  @Post(':channelId/test')
  @Requires('notifications.manage')
  async test(
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Param('channelId') channelId: string,
  ) {
    try {
      await this.channels.test(form.id, channelId);
    } catch (error) {
      if (error instanceof TooManyRequestsException) {
        void reply.header('retry-after', String(error.retryAfterSeconds));
        return this.refused(reply, form, 429, error.message);
      }
      if (error instanceof ConflictException) {
        return this.refused(reply, form, 409, error.message);
      }
      throw error;
    }
    return redirectToForm(reply, form.id, {
      page: 'notifications',
      done: 'test-queued',
      anchor: 'deliveries',
    });
  }

  @Post(':channelId/delete')
  @Requires('notifications.manage')
  async remove(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Param('channelId') channelId: string,
  ) {
    await this.channels.remove(form.id, channelId, {
      accountId: form.accountId,
      actor: memberPrincipal(context),
    });
    return redirectToForm(reply, form.id, {
      page: 'notifications',
      done: 'chat-deleted',
      anchor: 'chat-channels',
    });
  }

  private async refused(
    reply: FastifyReply,
    form: Form,
    status: number,
    text: string,
  ) {
    const data = await this.pages.build(form, {
      notice: { section: 'chat-channels', text },
    });
    return reply.status(status).view('form-notifications', data);
  }
}

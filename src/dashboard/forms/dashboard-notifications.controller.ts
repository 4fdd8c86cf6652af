import {
  Body,
  ConflictException,
  Controller,
  Get,
  Param,
  Post,
  Query,
  Res,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { WithDeadline } from '../../common/deadline.interceptor.js';
import {
  TooManyRequestsError,
  ValidationFailedException,
} from '../../common/errors.js';
import { ownEntry } from '../../common/own-entry.js';
import { FormsService } from '../../forms/forms.service.js';
import { DeliveriesService } from '../../notifications/deliveries.service.js';
import { WebhooksService } from '../../notifications/webhooks/webhooks.service.js';
import { validateFormInput } from '../../forms/form-input.validation.js';
import { textOf } from '../form-body.js';
import {
  Dashboard,
  ownerPrincipal,
  type DashboardContext,
} from '../dashboard-context.js';
import { DashboardExceptionFilter } from '../dashboard-exception.filter.js';
import { redirectToForm } from './form-links.js';
import { SignedInGuard } from '../session/dashboard.guards.js';
import { PageErrors, sentence } from '../page-errors.js';
import {
  NOTIFICATIONS_NOTICES,
  NotificationsPageBuilder,
  type NotificationsPageState,
} from './notifications-page.builder.js';

/** The recipients box: one address a line (commas and spaces also separate). */
export function recipientsFromText(text: string): string[] {
  return text.split(/[\s,;]+/).filter(Boolean);
}

/** "notifyEmails.1 must be …" → "Address 2 must be …", "notifyEmails must …" → "Recipients must …". */
function recipientsSentence(message: string): string {
  return message
    .replace(/^notifyEmails\.(\d+)/, (_, index: string) => {
      return `Address ${Number(index) + 1}`;
    })
    .replace(/^notifyEmails/, 'Recipients');
}

/** "url must use http…" → "The URL must use http…"; "url: x resolves…" → "X resolves…". */
function urlSentence(message: string): string {
  return sentence(message.replace(/^url: /, '').replace(/^url /, 'The URL '));
}

/** A form's Notifications tab: webhooks and the delivery log (and email recipients). */
@ApiExcludeController()
@WithDeadline()
@Controller('dashboard/forms/:formId/notifications')
@UseGuards(SignedInGuard)
@UseFilters(DashboardExceptionFilter)
export class DashboardNotificationsController {
  constructor(
    private readonly forms: FormsService,
    private readonly webhooks: WebhooksService,
    private readonly deliveries: DeliveriesService,
    private readonly pages: NotificationsPageBuilder,
  ) {}

  @Get()
  page(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('formId') formId: string,
    @Query('done') done?: string,
    @Query('cursor') cursor?: string,
  ) {
    return this.render(context, reply, formId, 200, {
      notice: ownEntry(NOTIFICATIONS_NOTICES, done),
      cursor: typeof cursor === 'string' ? cursor : undefined,
    });
  }

  @Post('recipients')
  async saveRecipients(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('formId') formId: string,
    @Body() body: unknown,
  ) {
    const typed = textOf(body, 'notifyEmails');
    const result = await validateFormInput(
      { notifyEmails: recipientsFromText(typed) },
      'patch',
    );
    if (!result.value) {
      const errors = new PageErrors();
      for (const message of result.errors) {
        errors.add(recipientsSentence(message), 'notifyEmails');
      }
      return this.render(context, reply, formId, 400, {
        notifyEmails: typed,
        errors,
      });
    }
    await this.forms.patch(ownerPrincipal(context), formId, {
      notifyEmails: result.value.notifyEmails ?? [],
    });
    return redirectToForm(reply, formId, {
      page: 'notifications',
      done: 'recipients-saved',
      anchor: 'recipients',
    });
  }

  @Post('webhooks')
  async create(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('formId') formId: string,
    @Body() body: unknown,
  ) {
    const form = await this.form(context, formId);
    const url = textOf(body, 'url').trim();
    const description = textOf(body, 'description').trim();
    const errors = new PageErrors();
    if (!url) errors.add('Enter the URL that receives the webhooks', 'url');
    else {
      try {
        const created = await this.webhooks.create(form, {
          url,
          description: description || null,
        });
        return this.render(context, reply, form, 200, {
          notice:
            'Webhook added. Copy its signing secret now: it is not shown again.',
          secret: { webhookId: created.id, value: created.secret },
        });
      } catch (error) {
        if (error instanceof ValidationFailedException) {
          error.errors.forEach((m) => errors.add(urlSentence(m), 'url'));
        } else if (error instanceof ConflictException) {
          errors.add(error.message, 'url');
        } else throw error;
      }
    }
    return this.render(context, reply, form, 400, {
      url,
      description,
      errors,
    });
  }

  @Post('webhooks/:webhookId/test')
  async test(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('formId') formId: string,
    @Param('webhookId') webhookId: string,
  ) {
    const form = await this.form(context, formId);
    try {
      await this.webhooks.test(form, webhookId);
    } catch (error) {
      return this.refused(context, reply, form, error);
    }
    return redirectToForm(reply, form, {
      page: 'notifications',
      done: 'test-queued',
      anchor: 'deliveries',
    });
  }

  @Post('webhooks/:webhookId/enable')
  async enable(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('formId') formId: string,
    @Param('webhookId') webhookId: string,
  ) {
    const form = await this.form(context, formId);
    await this.webhooks.patch(form, webhookId, { enabled: true });
    return redirectToForm(reply, form, {
      page: 'notifications',
      done: 'enabled',
      anchor: 'webhooks',
    });
  }

  @Post('webhooks/:webhookId/disable')
  async disable(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('formId') formId: string,
    @Param('webhookId') webhookId: string,
  ) {
    const form = await this.form(context, formId);
    await this.webhooks.patch(form, webhookId, { enabled: false });
    return redirectToForm(reply, form, {
      page: 'notifications',
      done: 'disabled',
      anchor: 'webhooks',
    });
  }

  @Post('webhooks/:webhookId/rotate')
  async rotate(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('formId') formId: string,
    @Param('webhookId') webhookId: string,
  ) {
    const form = await this.form(context, formId);
    const { secret } = await this.webhooks.rotateSecret(form, webhookId);
    return this.render(context, reply, form, 200, {
      notice:
        'New signing secret made. Copy it now: it is not shown again. The old one keeps working for 24 hours.',
      secret: { webhookId, value: secret },
    });
  }

  @Post('webhooks/:webhookId/delete')
  async remove(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('formId') formId: string,
    @Param('webhookId') webhookId: string,
  ) {
    const form = await this.form(context, formId);
    await this.webhooks.remove(form, webhookId);
    return redirectToForm(reply, form, {
      page: 'notifications',
      done: 'deleted',
      anchor: 'webhooks',
    });
  }

  @Post('deliveries/:deliveryId/retry')
  async retry(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('formId') formId: string,
    @Param('deliveryId') deliveryId: string,
  ) {
    const form = await this.form(context, formId);
    try {
      await this.deliveries.retry(form, deliveryId);
    } catch (error) {
      return this.refused(context, reply, form, error);
    }
    return redirectToForm(reply, form, {
      page: 'notifications',
      done: 'retried',
      anchor: 'deliveries',
    });
  }

  /**
   * A test or retry the service refused for a reason the owner can act on (the webhook
   * is off, the delivery is being sent, too many at once): the page with the sentence,
   * under the refusal's status (429 with Retry-After). Anything else goes to the filter.
   */
  private refused(
    context: DashboardContext,
    reply: FastifyReply,
    formId: string,
    error: unknown,
  ) {
    if (error instanceof TooManyRequestsError) {
      void reply.header('retry-after', String(error.retryAfterSeconds));
      return this.render(context, reply, formId, 429, {
        notice: error.message,
      });
    }
    if (!(error instanceof ConflictException)) throw error;
    return this.render(context, reply, formId, 409, { notice: error.message });
  }

  /** The form id when the signed-in owner has it, else the 404 page. */
  private async form(context: DashboardContext, formId: string) {
    return (await this.forms.findAccessible(ownerPrincipal(context), formId))
      .id;
  }

  private async render(
    context: DashboardContext,
    reply: FastifyReply,
    formId: string,
    status: number,
    state: NotificationsPageState,
  ) {
    const data = await this.pages.build(context, formId, state);
    return reply.status(status).view('form-notifications', data);
  }
}

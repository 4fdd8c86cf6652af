import {
  Dashboard,
  memberPrincipal,
  type DashboardContext,
} from '../dashboard-context.js';
import {
  Body,
  ConflictException,
  Controller,
  Get,
  NotFoundException,
  Param,
  Post,
  Query,
  Res,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { WithDeadline } from '../../common/http/deadline.interceptor.js';
import {
  TooManyRequestsException,
  type ErrorIssue,
} from '../../common/errors/errors.js';
import { ownEntry } from '../../common/values/own-entry.js';
import { FormsService } from '../../forms/forms.service.js';
import { DeliveriesService } from '../../notifications/deliveries/deliveries.service.js';
import {
  WEBHOOK_URL_UNREACHABLE,
  WebhooksService,
} from '../../notifications/webhooks/webhooks.service.js';
import type { FormResponseDto } from '../../forms/dto/form-response.dto.js';
import type { Form } from '../../forms/form.entity.js';
import type { WebhookResponseDto } from '../../notifications/webhooks/dto/webhook-response.dto.js';
import { validateFormInput } from '../../forms/input/form-input.validation.js';
import { textOf } from '../form-body.js';
import { DashboardExceptionFilter } from '../dashboard-exception.filter.js';
import { redirectToForm } from './form-links.js';
import { OwnedForm } from './owned-form.decorator.js';
import { SignedInGuard } from '../session/dashboard.guards.js';
import { addRefusal, PageErrors, sentence } from '../page-errors.js';
import {
  NOTIFICATIONS_NOTICES,
  NotificationsPageBuilder,
  type NotificationsPageState,
} from './notifications-page.builder.js';
import { Requires } from '../../auth/route-access.decorator.js';

/** The recipients box: one address a line (commas and spaces also separate). */
export function recipientsFromText(text: string): string[] {
  return text.split(/[\s,;]+/).filter(Boolean);
}

/**
 * A refused recipients list's message, worded for the box: "Address 2 must be …" for the
 * second address, "Recipients must …" for the list as a whole.
 */
function recipientsSentence(message: string, issue?: ErrorIssue): string {
  const [property, index] = issue?.field?.split('.') ?? [];
  if (property !== 'notifyEmails' || issue?.detail === undefined) {
    return sentence(message);
  }
  return index === undefined
    ? `Recipients ${issue.detail}`
    : `Address ${Number(index) + 1} ${issue.detail}`;
}

/** A refused webhook URL's message: "The URL must use http…", "The host … resolves…". */
function urlSentence(message: string, issue?: ErrorIssue): string {
  if (issue?.field !== 'url' || issue.detail === undefined) {
    return sentence(message);
  }
  return issue.code === WEBHOOK_URL_UNREACHABLE
    ? sentence(issue.detail)
    : `The URL ${issue.detail}`;
}

/** The webhook actions that ask for confirmation, with their pages' titles. */
const WEBHOOK_CONFIRMATIONS = {
  rotate: 'Rotate signing secret',
  delete: 'Delete webhook',
} as const;

/** webhook-confirm.eta. */
export interface WebhookConfirmView {
  form: FormResponseDto;
  webhook: WebhookResponseDto;
  action: keyof typeof WEBHOOK_CONFIRMATIONS;
  title: string;
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
  @Requires('forms.read')
  page(
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Query('done') done?: string,
    @Query('cursor') cursor?: string,
  ) {
    return this.render(reply, form, 200, {
      notice: ownEntry(NOTIFICATIONS_NOTICES, done),
      cursor: typeof cursor === 'string' ? cursor : undefined,
    });
  }

  @Post('recipients')
  @Requires('notifications.manage')
  async saveRecipients(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Body() body: unknown,
  ) {
    const typed = textOf(body, 'notifyEmails');
    const result = await validateFormInput(
      { notifyEmails: recipientsFromText(typed) },
      'patch',
    );
    if (!result.value) {
      const errors = new PageErrors();
      result.errors.forEach((message, index) => {
        errors.add(
          recipientsSentence(message, result.issues?.[index]),
          'notifyEmails',
        );
      });
      return this.render(reply, form, 400, {
        notifyEmails: typed,
        errors,
      });
    }
    await this.forms.patch(
      form,
      {
        notifyEmails: result.value.notifyEmails ?? [],
      },
      memberPrincipal(context),
    );
    return redirectToForm(reply, form.id, {
      page: 'notifications',
      done: 'recipients-saved',
      anchor: 'recipients',
    });
  }

  @Post('webhooks')
  @Requires('notifications.manage')
  async create(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Body() body: unknown,
  ) {
    const url = textOf(body, 'url').trim();
    const description = textOf(body, 'description').trim();
    const errors = new PageErrors();
    if (!url) errors.add('Enter the URL that receives the webhooks', 'url');
    else {
      try {
        const created = await this.webhooks.create(
          form.id,
          {
            url,
            description: description || null,
          },
          { accountId: form.accountId, actor: memberPrincipal(context) },
        );
        return this.render(reply, form, 200, {
          notice: {
            section: 'webhooks',
            text: 'Webhook added. Copy its signing secret now: it is not shown again.',
          },
          secret: { webhookId: created.id, value: created.secret },
        });
      } catch (error) {
        addRefusal(errors, error, 'url', urlSentence);
      }
    }
    return this.render(reply, form, 400, {
      url,
      description,
      errors,
    });
  }

  @Post('webhooks/:webhookId/test')
  @Requires('notifications.manage')
  async test(
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Param('webhookId') webhookId: string,
  ) {
    try {
      await this.webhooks.test(form.id, webhookId);
    } catch (error) {
      return this.refused(reply, form, error, 'webhooks');
    }
    return redirectToForm(reply, form.id, {
      page: 'notifications',
      done: 'test-queued',
      anchor: 'deliveries',
    });
  }

  @Post('webhooks/:webhookId/enable')
  @Requires('notifications.manage')
  async enable(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Param('webhookId') webhookId: string,
  ) {
    await this.webhooks.patch(
      form.id,
      webhookId,
      { enabled: true },
      { accountId: form.accountId, actor: memberPrincipal(context) },
    );
    return redirectToForm(reply, form.id, {
      page: 'notifications',
      done: 'enabled',
      anchor: 'webhooks',
    });
  }

  @Post('webhooks/:webhookId/disable')
  @Requires('notifications.manage')
  async disable(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Param('webhookId') webhookId: string,
  ) {
    await this.webhooks.patch(
      form.id,
      webhookId,
      { enabled: false },
      { accountId: form.accountId, actor: memberPrincipal(context) },
    );
    return redirectToForm(reply, form.id, {
      page: 'notifications',
      done: 'disabled',
      anchor: 'webhooks',
    });
  }

  /** Rotating a secret and deleting a webhook each ask first, on a page of their own. */
  @Get('webhooks/:webhookId/:action')
  @Requires('notifications.manage')
  async confirm(
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Param('webhookId') webhookId: string,
    @Param('action') action: string,
  ) {
    const title = ownEntry(WEBHOOK_CONFIRMATIONS, action);
    if (title === undefined) throw new NotFoundException('Page not found');
    return reply.view('webhook-confirm', {
      form: this.forms.toResponse(form),
      webhook: await this.webhooks.get(form.id, webhookId),
      action: action as WebhookConfirmView['action'],
      title,
    } satisfies WebhookConfirmView);
  }

  @Post('webhooks/:webhookId/rotate')
  @Requires('notifications.manage')
  async rotate(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Param('webhookId') webhookId: string,
  ) {
    const { secret } = await this.webhooks.rotateSecret(form.id, webhookId, {
      accountId: form.accountId,
      actor: memberPrincipal(context),
    });
    return this.render(reply, form, 200, {
      notice: {
        section: 'webhooks',
        text: 'New signing secret made. Copy it now: it is not shown again. The old one keeps working for 24 hours.',
      },
      secret: { webhookId, value: secret },
    });
  }

  @Post('webhooks/:webhookId/delete')
  @Requires('notifications.manage')
  async remove(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Param('webhookId') webhookId: string,
  ) {
    await this.webhooks.remove(form.id, webhookId, {
      accountId: form.accountId,
      actor: memberPrincipal(context),
    });
    return redirectToForm(reply, form.id, {
      page: 'notifications',
      done: 'deleted',
      anchor: 'webhooks',
    });
  }

  @Post('deliveries/:deliveryId/retry')
  @Requires('notifications.manage')
  async retry(
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Param('deliveryId') deliveryId: string,
  ) {
    try {
      await this.deliveries.retry(form.id, deliveryId);
    } catch (error) {
      return this.refused(reply, form, error, 'deliveries');
    }
    return redirectToForm(reply, form.id, {
      page: 'notifications',
      done: 'retried',
      anchor: 'deliveries',
    });
  }

  /**
   * A test or retry the service refused for a reason the owner can act on (the webhook
   * is off, the delivery is being sent, too many at once): the page with the sentence,
   * under the refusal's status (429 with Retry-After), in the section of the button.
   * Anything else goes to the filter.
   */
  private refused(
    reply: FastifyReply,
    form: Form,
    error: unknown,
    section: string,
  ) {
    if (error instanceof TooManyRequestsException) {
      void reply.header('retry-after', String(error.retryAfterSeconds));
      return this.render(reply, form, 429, {
        notice: { section, text: error.message },
      });
    }
    if (!(error instanceof ConflictException)) throw error;
    return this.render(reply, form, 409, {
      notice: { section, text: error.message },
    });
  }

  private async render(
    reply: FastifyReply,
    form: Form,
    status: number,
    state: NotificationsPageState,
  ) {
    const data = await this.pages.build(form, state);
    return reply.status(status).view('form-notifications', data);
  }
}

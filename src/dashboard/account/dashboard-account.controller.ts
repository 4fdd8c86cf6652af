import {
  Body,
  Controller,
  Get,
  Param,
  Post,
  Query,
  Req,
  Res,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { UserRepository } from '../../accounts/user.repository.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  AccountsService,
  type CreatedAccountKey,
} from '../../accounts/accounts.service.js';
import { normalizeAddress } from '../../erasure/address-match.js';
import { ErasureService } from '../../erasure/erasure.service.js';
import { passwordProblems } from '../../accounts/password.js';
import { isEmailAddress } from '../../common/values/email-address.js';
import { ownEntry } from '../../common/values/own-entry.js';
import { isChecked, textOf } from '../form-body.js';
import {
  Dashboard,
  type DashboardContext,
  memberPrincipal,
} from '../dashboard-context.js';
import { setSessionCookie } from '../session/session-cookie.js';
import { DashboardExceptionFilter } from '../dashboard-exception.filter.js';
import {
  DashboardSessionsService,
  sessionClientOf,
} from '../session/dashboard-sessions.service.js';
import { SignedInGuard } from '../session/dashboard.guards.js';
import { addValidationErrors, PageErrors, sentence } from '../page-errors.js';
import { SignInLimiter, waitMessage } from '../session/sign-in-limiter.js';
import {
  NoDeadline,
  WithDeadline,
} from '../../common/http/deadline.interceptor.js';
import {
  erasureNotice,
  keyRolesFor,
  KEY_EXPIRY_CHOICES,
  NOTICES,
  type AccountErasePageView,
  type AccountPageView,
  type AccountState,
} from './account-page.js';
import { Requires, SignedIn } from '../../auth/route-access.decorator.js';

/** The owner's account: account API keys, password, and personal data (erasure, export). */
@ApiExcludeController()
@WithDeadline()
@Controller('dashboard/account')
@UseGuards(SignedInGuard)
@UseFilters(DashboardExceptionFilter)
export class DashboardAccountController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly sessions: DashboardSessionsService,
    private readonly limits: SignInLimiter,
    private readonly erasure: ErasureService,
    private readonly users: UserRepository,
  ) {}

  @Get()
  @Requires('forms.read')
  account(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Query() query: Record<string, unknown>,
  ) {
    const done = query.done;
    return this.page(context, reply, 200, {
      notice:
        done === 'erased'
          ? erasureNotice(query)
          : ownEntry(NOTICES, typeof done === 'string' ? done : undefined),
    });
  }

  /** The data-subject export: an NDJSON download (posted, so the address stays out of URLs). */
  @Post('erasure/export')
  @Requires('submissions.export')
  @NoDeadline()
  async exportPersonalData(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
  ) {
    const email = this.erasureAddress(body);
    if (email.errors) return this.page(context, reply, 400, email.state);
    const stream = await this.erasure.openExport(
      context.account.id,
      email.address,
      memberPrincipal(context),
    );
    return reply
      .status(200)
      .header('content-type', 'application/x-ndjson; charset=utf-8')
      .header(
        'content-disposition',
        'attachment; filename="data-subject-export.ndjson"',
      )
      .header('cache-control', 'no-store')
      .send(stream);
  }

  /** How many submissions an erasure would delete, with a button to go ahead. */
  @Post('erasure/preview')
  @Requires('erasure')
  @NoDeadline()
  async previewErasure(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
  ) {
    const email = this.erasureAddress(body);
    if (email.errors) return this.page(context, reply, 400, email.state);
    const found = await this.erasure.erase(
      context.account.id,
      email.address,
      true,
    );
    return reply.status(200).view('account-erase', {
      email: email.address,
      count: found.deleted,
      forms: found.forms,
    } satisfies AccountErasePageView);
  }

  @Post('erasure')
  @Requires('erasure')
  @NoDeadline()
  async erase(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
  ) {
    const email = this.erasureAddress(body);
    if (email.errors) return this.page(context, reply, 400, email.state);
    const done = await this.erasure.erase(
      context.account.id,
      email.address,
      false,
      memberPrincipal(context),
    );
    return reply.redirect(
      `/dashboard/account?done=erased&deleted=${done.deleted}&forms=${done.forms}`,
      303,
    );
  }

  @Post('keys')
  @Requires('keys.manage')
  async createKey(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
  ) {
    const keyName = textOf(body, 'keyName');
    const readOnly = isChecked(body, 'readOnly');
    const allowed = keyRolesFor(context.account.role);
    const typed = textOf(body, 'role');
    const chosen = readOnly ? 'viewer' : typed || allowed[allowed.length - 1];
    const role = allowed.find((entry) => entry === chosen);
    if (!role) {
      const errors = new PageErrors();
      errors.add(
        `Choose a role up to your own (${allowed.join(', ')})`,
        'role',
      );
      return this.page(context, reply, 400, { keyName, readOnly, errors });
    }
    const expiresIn = textOf(body, 'expiresIn') || 'never';
    const choice = KEY_EXPIRY_CHOICES.find((c) => c.value === expiresIn);
    if (!choice) {
      const errors = new PageErrors();
      errors.add('Choose when the key expires', 'expiresIn');
      return this.page(context, reply, 400, { keyName, readOnly, errors });
    }
    let created: CreatedAccountKey;
    try {
      created = await this.accounts.createApiKey(context.account.id, keyName, {
        role,
        expiresAt: choice.days
          ? new Date(Date.now() + choice.days * 86_400_000)
          : null,
        by: memberPrincipal(context),
      });
    } catch (error) {
      const errors = addValidationErrors(
        new PageErrors(),
        error,
        'keyName',
        (message) => sentence(message.replace(/^name\b/, 'key name')),
      );
      return this.page(context, reply, 400, {
        keyName,
        readOnly,
        expiresIn,
        errors,
      });
    }
    // Shown in this response only: the key is stored as a hash.
    return this.page(context, reply, 201, {
      newKey: {
        name: created.key.name,
        apiKey: created.apiKey,
        readOnly: created.key.readOnly,
      },
    });
  }

  @Post('keys/:keyId/revoke')
  @Requires('keys.manage')
  async revokeKey(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('keyId') keyId: string,
  ) {
    await this.accounts.revokeApiKey(
      context.account.id,
      keyId,
      undefined,
      memberPrincipal(context),
    );
    return reply.redirect('/dashboard/account?done=key-revoked', 303);
  }

  /** "Mail me when I am assigned": the person's own setting, in every account. */
  @Post('assign-mail')
  @SignedIn()
  async assignMail(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
  ) {
    const on = isChecked(body, 'mailOnAssign');
    await this.users.setMailOnAssign(context.user.id, on);
    return reply.redirect(
      `/dashboard/account?done=assign-mail-${on ? 'on' : 'off'}`,
      303,
    );
  }

  @Post('password')
  @SignedIn()
  async changePassword(
    @Dashboard() context: DashboardContext,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
  ) {
    const current = textOf(body, 'currentPassword');
    const next = textOf(body, 'newPassword');
    const confirm = textOf(body, 'confirmPassword');
    const errors = new PageErrors();
    const wait = await this.limits.passwordCheckWait(context.user.id);
    if (wait > 0) {
      void reply.header('retry-after', String(wait));
      errors.add(waitMessage(wait));
      return this.page(context, reply, 429, { errors });
    }
    if (!current) errors.add('Enter your current password', 'currentPassword');
    passwordProblems(next).forEach((problem) =>
      errors.add(
        sentence(problem.replace(/^password/, 'new password')),
        'newPassword',
      ),
    );
    if (next !== confirm) {
      errors.add('The two new passwords do not match', 'confirmPassword');
    }
    if (!errors.any) {
      const user = await this.accounts.authenticate(
        context.user.email,
        current,
      );
      if (!user) {
        await this.limits.passwordCheckFailed(context.user.id);
        errors.add('Your current password is not right', 'currentPassword');
      }
    }
    if (errors.any) return this.page(context, reply, 400, { errors });

    await this.accounts.changePassword(context.user.id, next);
    // Every session of the user ends, this one included; a fresh one replaces it.
    await this.sessions.endAll(context.user.id);
    const { token } = await this.sessions.start(
      context.user.id,
      context.account.id,
      context.session.method,
      sessionClientOf(request),
    );
    setSessionCookie(request, reply, token);
    return reply.redirect('/dashboard/account?done=password-changed', 303);
  }

  /** The posted `erasureEmail`, normalized, or the account page's errors. */
  private erasureAddress(
    body: unknown,
  ):
    | { address: string; errors?: undefined }
    | { errors: PageErrors; state: AccountState } {
    const typed = textOf(body, 'erasureEmail');
    const address = normalizeAddress(typed);
    if (isEmailAddress(address)) return { address };
    const errors = new PageErrors().add(
      'Enter the email address of the person the request is from',
      'erasureEmail',
    );
    return { errors, state: { erasureEmail: typed, errors } };
  }

  private async page(
    context: DashboardContext,
    reply: FastifyReply,
    status: number,
    state: AccountState,
  ) {
    const keys = await this.accounts.listApiKeys(context.account.id);
    const mailOnAssign = await this.users.mailOnAssign(context.user.id);
    const keyRoles = keyRolesFor(context.account.role);
    return reply.status(status).view('account', {
      keys,
      keyRoles,
      role: keyRoles[keyRoles.length - 1],
      now: new Date(),
      expiryChoices: KEY_EXPIRY_CHOICES,
      expiresIn: 'never',
      mailOnAssign: mailOnAssign ?? true,
      ...state,
    } satisfies AccountPageView);
  }
}

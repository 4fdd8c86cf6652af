import { SignInFlowService } from '../session/sign-in-flow.service.js';
import {
  Body,
  Controller,
  Get,
  Param,
  Post,
  Req,
  Res,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SsoSignInService } from '../../sso/sso-sign-in.service.js';
import { ssoSignInPath } from '../session/sso-sign-in.controller.js';
import { AccountsService } from '../../accounts/accounts.service.js';
import { Public, SignedIn } from '../../auth/route-access.decorator.js';
import { WithDeadline } from '../../common/http/deadline.interceptor.js';
import { InvitationLinksService } from '../../members/invitation-links.service.js';
import { Dashboard, type DashboardContext } from '../dashboard-context.js';
import { DashboardExceptionFilter } from '../dashboard-exception.filter.js';
import { textOf } from '../form-body.js';
import { addValidationErrors, PageErrors } from '../page-errors.js';
import {
  DashboardSessionsService,
  sessionClientOf,
} from '../session/dashboard-sessions.service.js';
import {
  SignedInGuard,
  SignedOutCsrfGuard,
} from '../session/dashboard.guards.js';
import { setSessionCookie } from '../session/session-cookie.js';
import { SignInLimiter, waitMessage } from '../session/sign-in-limiter.js';
import { InvitationPageBuilder } from './invitation-page.builder.js';

/**
 * `/dashboard/invitations/:token`, the page behind an invitation's link. Opening it
 * changes nothing (mail scanners open links); joining is a POST: Accept when signed in as
 * the invited address (CSRF-protected like every signed-in form), or choosing a password
 * when the address has no user yet (the signed-out forms' CSRF, and the sign-up limit),
 * or with the password of a user who belongs to no account any more.
 */
@ApiExcludeController()
@WithDeadline()
@Controller('dashboard/invitations')
@UseFilters(DashboardExceptionFilter)
export class InvitationPageController {
  constructor(
    private readonly links: InvitationLinksService,
    private readonly sessions: DashboardSessionsService,
    private readonly limits: SignInLimiter,
    private readonly pages: InvitationPageBuilder,
    private readonly accounts: AccountsService,
    private readonly flow: SignInFlowService,
    private readonly sso: SsoSignInService,
  ) {}

  @Get(':token')
  @Public()
  @UseGuards(SignedOutCsrfGuard)
  async show(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('token') token: string,
  ) {
    return this.pages.send(request, reply, token);
  }

  @Post(':token/accept')
  @SignedIn()
  @UseGuards(SignedInGuard)
  async accept(
    @Dashboard() context: DashboardContext,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('token') token: string,
  ) {
    const joined = await this.links.accept(token, context.user);
    await this.pages.workIn(request, joined.accountId);
    return reply.redirect('/dashboard/members?done=joined', 303);
  }

  /**
   * Signing in from the invitation, for a user who belongs to no account any more (the
   * sign-in page has no account to let them into): their password, within the same
   * limits as the sign-in page's, then they join.
   */
  @Post(':token/login')
  @Public()
  @UseGuards(SignedOutCsrfGuard)
  async logIn(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('token') token: string,
    @Body() body: unknown,
  ) {
    const email = await this.links.pendingEmail(token);
    const password = textOf(body, 'password');
    const refused = (status: number, errors: PageErrors) =>
      this.pages.send(request, reply, token, { status, errors });
    const wait = await this.limits.loginWait(request.ip, email);
    if (wait > 0) {
      void reply.header('retry-after', String(wait));
      return refused(429, new PageErrors().add(waitMessage(wait)));
    }
    if (!password) {
      return refused(
        400,
        new PageErrors().add('Enter your password', 'password'),
      );
    }
    const user = await this.accounts.authenticate(email, password);
    if (!user) {
      await this.limits.loginFailed(request.ip, email);
      return refused(
        401,
        new PageErrors().add('That password is not right', 'password'),
      );
    }
    const joined = await this.links.accept(token, user);
    // Joined; but where the account requires SSO for the address, not with a password.
    if (await this.sso.passwordRefused(user)) {
      return reply.redirect(ssoSignInPath(user.email), 303);
    }
    // A user with a second factor gives it next, as on the sign-in page.
    return reply.redirect(
      await this.flow.afterPassword(
        request,
        reply,
        user,
        joined.accountId,
        '/dashboard/members?done=joined',
      ),
      303,
    );
  }

  @Post(':token/signup')
  @Public()
  @UseGuards(SignedOutCsrfGuard)
  async signUp(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('token') token: string,
    @Body() body: unknown,
  ) {
    const password = textOf(body, 'password');
    const confirmPassword = textOf(body, 'confirmPassword');
    const refused = (status: number, errors: PageErrors) =>
      this.pages.send(request, reply, token, { status, errors });
    const wait = await this.limits.signUpWait(request.ip);
    if (wait > 0) {
      void reply.header('retry-after', String(wait));
      return refused(429, new PageErrors().add(waitMessage(wait)));
    }
    await this.limits.signUpAttempted(request.ip);
    if (password !== confirmPassword) {
      return refused(
        400,
        new PageErrors().add(
          'The two passwords do not match',
          'confirmPassword',
        ),
      );
    }
    const email = await this.links.pendingEmail(token);
    let joined;
    try {
      joined = await this.links.signUp(token, password);
    } catch (error) {
      return refused(
        400,
        addValidationErrors(new PageErrors(), error, 'password'),
      );
    }
    const user = { id: joined.userId, email };
    if (await this.sso.passwordRefused(user)) {
      return reply.redirect(ssoSignInPath(email), 303);
    }
    const { token: sessionToken } = await this.sessions.start(
      joined.userId,
      joined.accountId,
      'password',
      sessionClientOf(request),
    );
    setSessionCookie(request, reply, sessionToken);
    return reply.redirect('/dashboard/members?done=joined', 303);
  }
}

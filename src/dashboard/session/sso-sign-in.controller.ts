import {
  Body,
  Controller,
  Get,
  Post,
  Query,
  Req,
  Res,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../auth/route-access.decorator.js';
import { WithDeadline } from '../../common/http/deadline.interceptor.js';
import { isEmailAddress } from '../../common/values/email-address.js';
import { SsoRefusalException } from '../../sso/sso-refusal.js';
import {
  SSO_ATTEMPT_TTL_MS,
  SsoSignInService,
} from '../../sso/sso-sign-in.service.js';
import {
  cookieOf,
  cookieOptions,
  type CookieReply,
  setCookie,
} from '../dashboard-context.js';
import { DashboardExceptionFilter } from '../dashboard-exception.filter.js';
import { textOf } from '../form-body.js';
import { PageErrors } from '../page-errors.js';
import { SignedOutCsrfGuard } from './dashboard.guards.js';
import { SignInAuditRecorder } from './sign-in-audit-recorder.js';
import { SignInFlowService } from './sign-in-flow.service.js';

/** The state of this browser's SSO sign-in under way (the callback must bring it back). */
export const SSO_STATE_COOKIE = 'dashboard_sso';

/** "Sign in with SSO" with the address filled in. */
export function ssoSignInPath(email: string): string {
  return `/dashboard/sso?email=${encodeURIComponent(email)}`;
}

/** sso-sign-in.eta. */
export interface SsoSignInPageView {
  email?: string;
  errors?: PageErrors;
}

/**
 * "Sign in with SSO": the address finds the account by its verified SSO domain, the
 * browser goes to the account's provider, and the callback signs the person in. Every
 * refusal is a page with its 4xx status (sso-refusal.ts), never a 500.
 */
@ApiExcludeController()
@WithDeadline()
@Controller('dashboard/sso')
@UseFilters(DashboardExceptionFilter)
export class SsoSignInController {
  constructor(
    private readonly sso: SsoSignInService,
    private readonly flow: SignInFlowService,
    private readonly audit: SignInAuditRecorder,
  ) {}

  @Get()
  @Public()
  @UseGuards(SignedOutCsrfGuard)
  page(@Res() reply: FastifyReply, @Query('email') email?: unknown) {
    return reply.view('sso-sign-in', {
      email: typeof email === 'string' ? email.slice(0, 254) : undefined,
    } satisfies SsoSignInPageView);
  }

  @Post()
  @Public()
  @UseGuards(SignedOutCsrfGuard)
  async start(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
  ) {
    const email = textOf(body, 'email').trim().slice(0, 254);
    const page = (status: number, message: string) =>
      reply.status(status).view('sso-sign-in', {
        email,
        errors: new PageErrors().add(message, 'email'),
      } satisfies SsoSignInPageView);
    if (!isEmailAddress(email.toLowerCase())) {
      return page(400, 'Enter your work email address, like name@example.com');
    }
    let started;
    try {
      started = await this.sso.start(email);
    } catch (error) {
      if (error instanceof SsoRefusalException) {
        return page(error.getStatus(), error.message);
      }
      throw error;
    }
    setCookie(
      reply,
      SSO_STATE_COOKIE,
      started.state,
      cookieOptions(request, SSO_ATTEMPT_TTL_MS),
    );
    return reply.redirect(started.url, 303);
  }

  @Get('callback')
  @Public()
  async callback(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const state = cookieOf(request, SSO_STATE_COOKIE);
    // The attempt is used once, whatever the answer: its cookie goes too.
    (reply as unknown as CookieReply).clearCookie(
      SSO_STATE_COOKIE,
      cookieOptions(request),
    );
    const at = request.url.indexOf('?');
    const query = at === -1 ? '' : request.url.slice(at + 1, at + 1 + 8192);
    let signedIn;
    try {
      signedIn = await this.sso.finish(query, state);
    } catch (error) {
      // A refused sign-in of a known user is theirs to see in the audit log.
      if (error instanceof SsoRefusalException && error.email !== undefined) {
        await this.audit.failed(error.email, request, `sso: ${error.problem}`);
      }
      throw error;
    }
    await this.flow.succeeded(
      request,
      reply,
      { id: signedIn.userId, email: signedIn.email },
      signedIn.accountId,
      'sso',
    );
    return reply.redirect(
      signedIn.joined
        ? '/dashboard/forms?done=joined-by-sso'
        : '/dashboard/forms',
      303,
    );
  }
}

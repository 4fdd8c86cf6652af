import {
  Body,
  Controller,
  Get,
  HttpCode,
  NotFoundException,
  Post,
  Query,
  Req,
  Res,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccountsService } from '../../accounts/accounts.service.js';
import { MembershipsService } from '../../accounts/memberships.service.js';
import { ownEntry } from '../../common/values/own-entry.js';
import { AppConfig } from '../../config/app-config.js';
import { AccountVerificationService } from '../../notifications/email/account-verification.service.js';
import { textOf } from '../form-body.js';
import { cookieOf, safeNextPath } from '../dashboard-context.js';
import {
  clearSessionCookie,
  SESSION_COOKIE,
  setSessionCookie,
} from './session-cookie.js';
import { DashboardExceptionFilter } from '../dashboard-exception.filter.js';
import {
  DashboardSessionsService,
  sessionClientOf,
} from './dashboard-sessions.service.js';
import { SignedInGuard, SignedOutCsrfGuard } from './dashboard.guards.js';
import { PageErrors, refusalOf, sentence } from '../page-errors.js';
import { SignInLimiter, waitMessage } from './sign-in-limiter.js';
import { SignInFlowService } from './sign-in-flow.service.js';
import { PASSKEY_SCRIPTS } from '../passkey-scripts.js';
import { PasskeysService } from '../../second-factors/passkeys.service.js';
import { DuringFactorSetup } from './second-step-paths.js';
import { WithDeadline } from '../../common/http/deadline.interceptor.js';
import { Public, SignedIn } from '../../auth/route-access.decorator.js';
import { SsoSignInService } from '../../sso/sso-sign-in.service.js';

const NOTICES: Record<string, string> = {
  'signed-out': 'You are logged out.',
  'password-changed': 'Your password was changed. Please log in again.',
};

/** Sign up, log in, log out. */
/** login.eta: what was typed when a sign-in is refused, and where to go after it. */
export interface LoginPageView {
  email?: string;
  next?: string;
  notice?: string;
  errors?: PageErrors;
  signupEnabled: boolean;
  /** Passkeys can be used here (PUBLIC_URL is a host name, not an IP address). */
  passkeys: boolean;
  scripts?: readonly string[];
}

/** signup.eta. */
export interface SignupPageView {
  signupEnabled: boolean;
  email?: string;
  errors?: PageErrors;
}

@ApiExcludeController()
@WithDeadline()
@Controller('dashboard')
@UseFilters(DashboardExceptionFilter)
export class DashboardAuthController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly memberships: MembershipsService,
    private readonly sessions: DashboardSessionsService,
    private readonly limits: SignInLimiter,
    private readonly config: AppConfig,
    private readonly verification: AccountVerificationService,
    private readonly flow: SignInFlowService,
    private readonly passkeys: PasskeysService,
    private readonly sso: SsoSignInService,
  ) {}

  private passkeyView(): Pick<LoginPageView, 'passkeys' | 'scripts'> {
    const passkeys = this.passkeys.party !== null;
    return { passkeys, scripts: passkeys ? PASSKEY_SCRIPTS : undefined };
  }

  @Get()
  @Public()
  async home(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const signedIn = await this.sessions.find(
      cookieOf(request, SESSION_COOKIE),
    );
    return reply.redirect(
      signedIn ? '/dashboard/forms' : '/dashboard/login',
      303,
    );
  }

  @Get('login')
  @Public()
  @UseGuards(SignedOutCsrfGuard)
  async loginPage(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Query('next') next?: string,
    @Query('done') done?: string,
    @Query('email') email?: unknown,
  ) {
    if (await this.sessions.find(cookieOf(request, SESSION_COOKIE))) {
      return reply.redirect(safeNextPath(next), 303);
    }
    return reply.view('login', {
      // An invitation's page sends its address along, so it is filled in.
      email: typeof email === 'string' ? email.slice(0, 254) : undefined,
      next: next === undefined ? undefined : safeNextPath(next),
      notice: ownEntry(NOTICES, done),
      signupEnabled: this.config.signupEnabled,
      ...this.passkeyView(),
    } satisfies LoginPageView);
  }

  @Post('login')
  @Public()
  @UseGuards(SignedOutCsrfGuard)
  async login(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
    @Query('next') next?: string,
  ) {
    const email = textOf(body, 'email').trim();
    const password = textOf(body, 'password');
    const page = (status: number, errors: PageErrors) =>
      reply.status(status).view('login', {
        email,
        next: next === undefined ? undefined : safeNextPath(next),
        errors,
        signupEnabled: this.config.signupEnabled,
        ...this.passkeyView(),
      } satisfies LoginPageView);

    const wait = await this.limits.loginWait(request.ip, email);
    if (wait > 0) {
      void reply.header('retry-after', String(wait));
      return page(429, new PageErrors().add(waitMessage(wait)));
    }
    const errors = new PageErrors();
    if (!email) errors.add('Enter your email address', 'email');
    if (!password) errors.add('Enter your password', 'password');
    if (errors.any) return page(400, errors);

    const user = await this.accounts.authenticate(email, password);
    if (!user) {
      await this.flow.failed(request, email);
      return page(
        401,
        new PageErrors().add(
          'That email and password do not match an account',
          'email',
        ),
      );
    }
    if (await this.sso.passwordRefused(user)) {
      // The password was right, but the account requires its SSO for this address.
      return page(
        403,
        new PageErrors().add(
          'Your organisation requires single sign-on for this address: use “Sign in with SSO” below. Passwords are refused for its members (owners excepted).',
          'email',
        ),
      );
    }
    const [first] = await this.memberships.accountsOf(user.id);
    if (!first) {
      return page(
        403,
        new PageErrors().add(
          'You are not a member of any account any more. Ask an owner of one to invite you again.',
          'email',
        ),
      );
    }
    return reply.redirect(
      await this.flow.afterPassword(
        request,
        reply,
        user,
        first.accountId,
        next,
      ),
      303,
    );
  }

  @Get('signup')
  @Public()
  @UseGuards(SignedOutCsrfGuard)
  signupPage(@Res() reply: FastifyReply) {
    return reply.view('signup', {
      signupEnabled: this.config.signupEnabled,
    } satisfies SignupPageView);
  }

  @Post('signup')
  @Public()
  @UseGuards(SignedOutCsrfGuard)
  async signup(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
  ) {
    if (!this.config.signupEnabled) {
      return reply
        .status(403)
        .view('signup', { signupEnabled: false } satisfies SignupPageView);
    }
    const email = textOf(body, 'email').trim();
    const password = textOf(body, 'password');
    const confirmPassword = textOf(body, 'confirmPassword');
    const page = (status: number, errors: PageErrors) =>
      reply.status(status).view('signup', {
        signupEnabled: true,
        email,
        errors,
      } satisfies SignupPageView);

    const wait = await this.limits.signUpWait(request.ip);
    if (wait > 0) {
      void reply.header('retry-after', String(wait));
      return page(429, new PageErrors().add(waitMessage(wait)));
    }
    await this.limits.signUpAttempted(request.ip);
    const errors = new PageErrors();
    let status = 400;
    if (password && password !== confirmPassword) {
      errors.add('The two passwords do not match', 'confirmPassword');
    }
    let signedUp;
    if (!errors.any) {
      try {
        signedUp = await this.accounts.create(email, password);
      } catch (error) {
        const refusal = refusalOf(error);
        status = refusal.status;
        if (status === 409) {
          errors.add(
            'An account with this email already exists. Log in instead, or use another email.',
            'email',
          );
        } else {
          for (const message of refusal.messages) {
            const field = message.startsWith('email') ? 'email' : 'password';
            errors.add(sentence(message), field);
          }
        }
      }
    }
    if (!signedUp) return page(status, errors);
    const { user, account } = signedUp;
    // The address is mailed a verification link (within the mail caps): until it is
    // verified, nothing else is mailed to it.
    await this.verification.requestLink(user.id, account.id);
    await this.accounts.recordSignIn(user.id);
    const { token } = await this.sessions.start(
      user.id,
      account.id,
      'password',
      sessionClientOf(request),
    );
    setSessionCookie(request, reply, token);
    return reply.redirect('/dashboard/forms?done=welcome', 303);
  }

  /** Unknown dashboard addresses get a page, not the API's JSON 404. */
  @Get('*')
  @Public()
  notFound(): never {
    throw new NotFoundException(
      'There is no page at this address. It may have moved, or the link may be incomplete.',
    );
  }

  @Post('logout')
  @SignedIn()
  @DuringFactorSetup()
  @HttpCode(303)
  @UseGuards(SignedInGuard)
  async logout(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    await this.sessions.end(cookieOf(request, SESSION_COOKIE));
    clearSessionCookie(request, reply);
    return reply.redirect('/dashboard/login?done=signed-out', 303);
  }
}

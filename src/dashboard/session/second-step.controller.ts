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
import { PasskeysService } from '../../second-factors/passkeys.service.js';
import { TotpService } from '../../second-factors/totp.service.js';
import { cookieOf, safeNextPath } from '../dashboard-context.js';
import { DashboardExceptionFilter } from '../dashboard-exception.filter.js';
import { textOf } from '../form-body.js';
import { PageErrors } from '../page-errors.js';
import { DashboardSessionsService } from './dashboard-sessions.service.js';
import {
  Pending,
  PendingSessionGuard,
  type PendingSignIn,
} from './pending-session.guard.js';
import { PASSKEY_SCRIPTS } from '../passkey-scripts.js';
import { clearSessionCookie, SESSION_COOKIE } from './session-cookie.js';
import { SignInFlowService } from './sign-in-flow.service.js';
import { SignInLimiter, waitMessage } from './sign-in-limiter.js';

/** second-step.eta. */
export interface SecondStepView {
  next?: string;
  totp: boolean;
  passkeys: boolean;
  errors?: PageErrors;
  scripts?: readonly string[];
}

const REFUSALS = {
  wrong: 'That code is not right. Check the time on your device and try again.',
  replayed:
    'That code was used already. Wait for the next one in your authenticator app.',
  recovery: 'That recovery code is not right, or it was used already.',
  passkey: 'That passkey did not sign you in. Try again, or use a code.',
};

/**
 * The second step of a password sign-in: a TOTP code, a recovery code or a passkey. Only
 * a half-signed-in session reaches it; wrong codes count like wrong passwords.
 */
@ApiExcludeController()
@WithDeadline()
@Controller('dashboard/sign-in/second-step')
@UseFilters(DashboardExceptionFilter)
@Public()
@UseGuards(PendingSessionGuard)
export class SecondStepController {
  constructor(
    private readonly totp: TotpService,
    private readonly passkeys: PasskeysService,
    private readonly flow: SignInFlowService,
    private readonly limits: SignInLimiter,
    private readonly sessions: DashboardSessionsService,
  ) {}

  @Get()
  async page(
    @Pending() pending: PendingSignIn,
    @Res() reply: FastifyReply,
    @Query('next') next?: string,
  ) {
    return this.render(reply, pending, 200, next);
  }

  @Post('code')
  async code(
    @Pending() pending: PendingSignIn,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
    @Query('next') next?: string,
  ) {
    const refused = await this.waiting(request, reply, pending, next);
    if (refused) return refused;
    const outcome = await this.totp.checkCode(
      pending.user.id,
      textOf(body, 'code'),
    );
    if (outcome !== 'accepted') {
      await this.flow.failed(
        request,
        pending.user.email,
        'wrong two-step code',
      );
      return this.render(reply, pending, 401, next, REFUSALS[outcome]);
    }
    await this.complete(request, reply, pending, 'password+totp');
    return reply.redirect(safeNextPath(next), 303);
  }

  @Post('recovery')
  async recovery(
    @Pending() pending: PendingSignIn,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
    @Query('next') next?: string,
  ) {
    const refused = await this.waiting(request, reply, pending, next);
    if (refused) return refused;
    const used = await this.totp.useRecoveryCode(
      pending.user.id,
      textOf(body, 'recoveryCode'),
    );
    if (!used) {
      await this.flow.failed(
        request,
        pending.user.email,
        'wrong recovery code',
      );
      return this.render(
        reply,
        pending,
        401,
        next,
        REFUSALS.recovery,
        'recoveryCode',
      );
    }
    // A recovery code stands in for the authenticator's code.
    await this.complete(request, reply, pending, 'password+totp');
    return reply.redirect(
      `/dashboard/account/security?done=recovery-code-used`,
      303,
    );
  }

  @Post('passkey/options')
  async passkeyOptions(
    @Pending() pending: PendingSignIn,
    @Res() reply: FastifyReply,
  ) {
    if (!this.passkeys.party) {
      return reply
        .status(404)
        .send({ error: 'Passkeys are not available here.' });
    }
    return reply
      .status(200)
      .send(await this.passkeys.signInOptions(pending.user.id));
  }

  @Post('passkey')
  async passkey(
    @Pending() pending: PendingSignIn,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
    @Query('next') next?: string,
  ) {
    const wait = await this.limits.loginWait(request.ip, pending.user.email);
    if (wait > 0) {
      void reply.header('retry-after', String(wait));
      return reply.status(429).send({ error: waitMessage(wait) });
    }
    const response =
      body !== null &&
      typeof body === 'object' &&
      Object.hasOwn(body, 'response')
        ? (body as { response: unknown }).response
        : undefined;
    const userId = this.passkeys.party
      ? await this.passkeys.verifySignIn(pending.user.id, response)
      : null;
    if (userId !== pending.user.id) {
      await this.flow.failed(request, pending.user.email, 'passkey refused');
      return reply.status(401).send({ error: REFUSALS.passkey });
    }
    await this.complete(request, reply, pending, 'password+passkey');
    return reply.status(200).send({ redirect: safeNextPath(next) });
  }

  @Post('cancel')
  async cancel(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    await this.sessions.end(cookieOf(request, SESSION_COOKIE));
    clearSessionCookie(request, reply);
    return reply.redirect('/dashboard/login', 303);
  }

  private async complete(
    request: FastifyRequest,
    reply: FastifyReply,
    pending: PendingSignIn,
    method: 'password+totp' | 'password+passkey',
  ): Promise<void> {
    await this.flow.succeeded(
      request,
      reply,
      pending.user,
      pending.session.accountId,
      method,
    );
  }

  /** The 429 page when this client must wait before another try, else null. */
  private async waiting(
    request: FastifyRequest,
    reply: FastifyReply,
    pending: PendingSignIn,
    next: string | undefined,
  ) {
    const wait = await this.limits.loginWait(request.ip, pending.user.email);
    if (wait <= 0) return null;
    void reply.header('retry-after', String(wait));
    return this.render(reply, pending, 429, next, waitMessage(wait));
  }

  private async render(
    reply: FastifyReply,
    pending: PendingSignIn,
    status: number,
    next: string | undefined,
    error?: string,
    field = 'code',
  ) {
    const [totp, passkeys] = await Promise.all([
      this.totp.isOn(pending.user.id),
      this.passkeys.party
        ? this.passkeys.list(pending.user.id)
        : Promise.resolve([]),
    ]);
    return reply.status(status).view('second-step', {
      next: next === undefined ? undefined : safeNextPath(next),
      totp,
      passkeys: passkeys.length > 0,
      errors: error
        ? new PageErrors().add(error, totp ? field : undefined)
        : undefined,
      scripts: passkeys.length > 0 ? PASSKEY_SCRIPTS : undefined,
    } satisfies SecondStepView);
  }
}

import {
  Body,
  Controller,
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
import { Public } from '../../auth/route-access.decorator.js';
import { WithDeadline } from '../../common/http/deadline.interceptor.js';
import { PasskeysService } from '../../second-factors/passkeys.service.js';
import { SsoSignInService } from '../../sso/sso-sign-in.service.js';
import { safeNextPath } from '../dashboard-context.js';
import { DashboardExceptionFilter } from '../dashboard-exception.filter.js';
import { SignedOutCsrfGuard } from './dashboard.guards.js';
import { SignInFlowService } from './sign-in-flow.service.js';
import { SignInLimiter, waitMessage } from './sign-in-limiter.js';

/** The per-client limit's key for passkey sign-ins, which name no address. */
const NO_EMAIL = '';

/**
 * Signing in with a passkey alone (a discoverable credential, user verification
 * required): complete on its own. The page's script posts JSON and gets JSON back.
 */
@ApiExcludeController()
@WithDeadline()
@Controller('dashboard/login/passkey')
@UseFilters(DashboardExceptionFilter)
@Public()
@UseGuards(SignedOutCsrfGuard)
export class PasskeySignInController {
  constructor(
    private readonly passkeys: PasskeysService,
    private readonly accounts: AccountsService,
    private readonly memberships: MembershipsService,
    private readonly flow: SignInFlowService,
    private readonly limits: SignInLimiter,
    private readonly sso: SsoSignInService,
  ) {}

  @Post('options')
  async options(@Res() reply: FastifyReply) {
    if (!this.passkeys.party) {
      return reply
        .status(404)
        .send({ error: 'Passkeys are not available here.' });
    }
    return reply.status(200).send(await this.passkeys.signInOptions(null));
  }

  @Post()
  async signIn(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
    @Query('next') next?: string,
  ) {
    const wait = await this.limits.loginWait(request.ip, NO_EMAIL);
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
      ? await this.passkeys.verifySignIn(null, response)
      : null;
    const user = userId ? await this.accounts.findUserById(userId) : null;
    if (!user) {
      await this.flow.failed(request, NO_EMAIL);
      return reply.status(401).send({
        error:
          'That passkey did not sign you in. Try again, or use your password.',
      });
    }
    if (await this.sso.passwordRefused(user)) {
      return reply.status(403).send({
        error:
          'Your organisation requires single sign-on for this address: use “Sign in with SSO”.',
      });
    }
    const [first] = await this.memberships.accountsOf(user.id);
    if (!first) {
      return reply.status(403).send({
        error:
          'You are not a member of any account any more. Ask an owner of one to invite you again.',
      });
    }
    await this.flow.succeeded(request, reply, user, first.accountId, 'passkey');
    return reply.status(200).send({ redirect: safeNextPath(next) });
  }
}

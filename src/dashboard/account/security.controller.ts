import {
  Body,
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
import { AccountsService } from '../../accounts/accounts.service.js';
import { Requires, SignedIn } from '../../auth/route-access.decorator.js';
import { WithDeadline } from '../../common/http/deadline.interceptor.js';
import { ownEntry } from '../../common/values/own-entry.js';
import { PasskeysService } from '../../second-factors/passkeys.service.js';
import { SecondFactorsService } from '../../second-factors/second-factors.service.js';
import { SecurityPolicyService } from '../../second-factors/security-policy.service.js';
import { TotpService } from '../../second-factors/totp.service.js';
import {
  Dashboard,
  memberPrincipal,
  type DashboardContext,
} from '../dashboard-context.js';
import { DashboardExceptionFilter } from '../dashboard-exception.filter.js';
import { isChecked, textOf } from '../form-body.js';
import { PageErrors } from '../page-errors.js';
import { SignedInGuard } from '../session/dashboard.guards.js';
import { PASSKEY_SCRIPTS } from '../passkey-scripts.js';
import { DuringFactorSetup } from '../session/second-step-paths.js';
import { SignInLimiter, waitMessage } from '../session/sign-in-limiter.js';
import {
  canManagePolicy,
  SECURITY_NOTICES,
  SECURITY_PATH,
  type RecoveryCodesPageView,
  type SecurityPageView,
  type TotpSetupPageView,
} from './security-page.js';

/**
 * The member's sign-in security: two-step codes (TOTP) with recovery codes, passkeys, and
 * (owners and admins) the account's policy "members must use a second factor". A member
 * whose account requires one reaches this page and its set-up routes before anything else.
 */
@ApiExcludeController()
@WithDeadline()
@Controller('dashboard/account/security')
@UseGuards(SignedInGuard)
@UseFilters(DashboardExceptionFilter)
export class SecurityController {
  constructor(
    private readonly totp: TotpService,
    private readonly passkeys: PasskeysService,
    private readonly factors: SecondFactorsService,
    private readonly policy: SecurityPolicyService,
    private readonly accounts: AccountsService,
    private readonly limits: SignInLimiter,
  ) {}

  @Get()
  @SignedIn()
  @DuringFactorSetup()
  async page(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Query('done') done?: string,
    @Query('required') required?: string,
  ) {
    return this.render(context, reply, 200, {
      notice: ownEntry(SECURITY_NOTICES, done),
      setupRequired: required === '1',
    });
  }

  @Post('totp/setup')
  @SignedIn()
  @DuringFactorSetup()
  async startTotp(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
  ) {
    if (await this.totp.isOn(context.user.id)) {
      return reply.redirect(`${SECURITY_PATH}?done=totp-on`, 303);
    }
    const setup = await this.totp.startSetup(
      context.user.id,
      context.user.email,
    );
    return reply
      .status(200)
      .view('totp-setup', { setup } satisfies TotpSetupPageView);
  }

  @Post('totp/confirm')
  @SignedIn()
  @DuringFactorSetup()
  async confirmTotp(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
  ) {
    const codes = await this.totp.confirmSetup(
      context.user.id,
      textOf(body, 'code'),
      Date.now(),
      memberPrincipal(context),
    );
    if (!codes) {
      const setup = await this.totp.pendingSetup(
        context.user.id,
        context.user.email,
      );
      if (!setup) return reply.redirect(SECURITY_PATH, 303);
      return reply.status(400).view('totp-setup', {
        setup,
        errors: new PageErrors().add(
          'That code is not right. Enter the code your app shows now.',
          'code',
        ),
      } satisfies TotpSetupPageView);
    }
    return reply.status(200).view('recovery-codes', {
      codes,
    } satisfies RecoveryCodesPageView);
  }

  @Post('totp/disable')
  @SignedIn()
  async disableTotp(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
  ) {
    const errors = new PageErrors();
    const wait = await this.limits.passwordCheckWait(context.user.id);
    if (wait > 0) {
      void reply.header('retry-after', String(wait));
      return this.render(context, reply, 429, {
        errors: errors.add(waitMessage(wait)),
      });
    }
    const password = textOf(body, 'password');
    const code = textOf(body, 'code');
    const user = password
      ? await this.accounts.authenticate(context.user.email, password)
      : null;
    if (!user) errors.add('Your password is not right', 'password');
    else if (
      (await this.totp.checkCode(context.user.id, code)) !== 'accepted'
    ) {
      if (!(await this.totp.useRecoveryCode(context.user.id, code))) {
        errors.add(
          'That code is not right (or was used already). Enter the code your app shows now, or a recovery code.',
          'code',
        );
      }
    }
    if (errors.any) {
      await this.limits.passwordCheckFailed(context.user.id);
      return this.render(context, reply, 400, { errors });
    }
    await this.totp.turnOff(context.user.id, memberPrincipal(context));
    return reply.redirect(`${SECURITY_PATH}?done=totp-off`, 303);
  }

  @Post('recovery-codes')
  @SignedIn()
  async newRecoveryCodes(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
  ) {
    if (!(await this.totp.isOn(context.user.id))) {
      return reply.redirect(SECURITY_PATH, 303);
    }
    const codes = await this.totp.replaceRecoveryCodes(context.user.id);
    return reply.status(200).view('recovery-codes', {
      codes,
    } satisfies RecoveryCodesPageView);
  }

  @Post('passkeys/options')
  @SignedIn()
  @DuringFactorSetup()
  async passkeyOptions(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
  ) {
    if (!this.passkeys.party) {
      return reply
        .status(404)
        .send({ error: 'Passkeys are not available here.' });
    }
    return reply
      .status(200)
      .send(await this.passkeys.registrationOptions(context.user));
  }

  @Post('passkeys')
  @SignedIn()
  @DuringFactorSetup()
  async addPasskey(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
  ) {
    const response =
      body !== null &&
      typeof body === 'object' &&
      Object.hasOwn(body, 'response')
        ? (body as { response: unknown }).response
        : undefined;
    const added = this.passkeys.party
      ? await this.passkeys.register(
          context.user.id,
          response,
          textOf(body, 'name'),
          memberPrincipal(context),
        )
      : null;
    if (!added) {
      return reply.status(400).send({
        error: 'The passkey could not be added. Try again.',
      });
    }
    return reply
      .status(200)
      .send({ redirect: `${SECURITY_PATH}?done=passkey-added` });
  }

  @Post('passkeys/:id/rename')
  @SignedIn()
  async renamePasskey(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
    @Body() body: unknown,
  ) {
    await this.passkeys.rename(context.user.id, id, textOf(body, 'name'));
    return reply.redirect(`${SECURITY_PATH}?done=passkey-renamed`, 303);
  }

  @Post('passkeys/:id/remove')
  @SignedIn()
  async removePasskey(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
  ) {
    await this.passkeys.remove(context.user.id, id, memberPrincipal(context));
    return reply.redirect(`${SECURITY_PATH}?done=passkey-removed`, 303);
  }

  @Post('policy')
  @Requires('security.manage')
  async savePolicy(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
  ) {
    await this.policy.setRequireSecondFactor(
      context.account.id,
      isChecked(body, 'requireSecondFactor'),
      memberPrincipal(context),
    );
    return reply.redirect(`${SECURITY_PATH}?done=policy-saved`, 303);
  }

  private async render(
    context: DashboardContext,
    reply: FastifyReply,
    status: number,
    state: Pick<SecurityPageView, 'notice' | 'errors'> & {
      setupRequired?: boolean;
    },
  ) {
    const [factors, requireSecondFactor] = await Promise.all([
      this.factors.of(context.user.id),
      this.policy.requiresSecondFactor(context.account.id),
    ]);
    const hasFactor = factors.totp || factors.passkeys.length > 0;
    const party = this.passkeys.party;
    return reply.status(status).view('security', {
      totp: factors.totp,
      recoveryCodesLeft: factors.recoveryCodesLeft,
      passkeys: factors.passkeys,
      passkeyHost: party?.id ?? null,
      requireSecondFactor,
      canManagePolicy: canManagePolicy(context.account.role),
      setupRequired:
        requireSecondFactor &&
        !hasFactor &&
        context.session.method !== 'sso' &&
        (state.setupRequired ?? true),
      notice: state.notice,
      errors: state.errors,
      scripts: party ? PASSKEY_SCRIPTS : undefined,
    } satisfies SecurityPageView);
  }
}

import {
  Controller,
  Get,
  Param,
  Post,
  Res,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { WithDeadline } from '../../common/http/deadline.interceptor.js';
import { TooManyRequestsException } from '../../common/errors/errors.js';
import {
  AccountVerificationService,
  VERIFICATION_VALID_DAYS,
  type VerificationState,
} from '../../notifications/email/account-verification.service.js';
import { Dashboard, type DashboardContext } from '../dashboard-context.js';
import { DashboardExceptionFilter } from '../dashboard-exception.filter.js';
import { SignedInGuard } from '../session/dashboard.guards.js';
import { Public, SignedIn } from '../../auth/route-access.decorator.js';

/** verify-email.eta: an owner verifying their account's address. */
export interface VerifyEmailPageView {
  state: VerificationState;
  status: number;
  title: string;
  token: string;
  justVerified: boolean;
  validDays: number;
}

const PAGES: Record<VerificationState, { status: number; title: string }> = {
  pending: { status: 200, title: 'Verify your email address' },
  verified: { status: 200, title: 'Email address verified' },
  expired: { status: 410, title: 'This verification link has expired' },
  unknown: { status: 404, title: 'This verification link is not valid' },
};

/** Seconds until the next UTC day, when the daily caps start again. */
function secondsToNextDay(now = new Date()): number {
  const next = Date.UTC(
    now.getUTCFullYear(),
    now.getUTCMonth(),
    now.getUTCDate() + 1,
  );
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

/**
 * An account's own address: the page behind the link mailed at sign-up, and the banner's
 * "Send the link again". Opening the link (GET) changes nothing, so mail scanners that
 * follow links verify nothing; its Verify button posts back to the same address. That POST
 * carries no CSRF token on purpose, like a recipient's confirmation: the token in the path
 * is a 256-bit secret only the mailbox received.
 */
@ApiExcludeController()
@WithDeadline()
@Controller('dashboard')
@UseFilters(DashboardExceptionFilter)
export class VerifyEmailController {
  constructor(private readonly verification: AccountVerificationService) {}

  @Get('verify-email/:token')
  @Public()
  async show(@Param('token') token: string, @Res() reply: FastifyReply) {
    const state = await this.verification.stateOf(token);
    return this.page(reply, token, state, false);
  }

  @Post('verify-email/:token')
  @Public()
  async verify(@Param('token') token: string, @Res() reply: FastifyReply) {
    const before = await this.verification.stateOf(token);
    const state = await this.verification.verify(token);
    return this.page(reply, token, state, before === 'pending');
  }

  /** The banner's button: a fresh link, at most once a minute and within the mail caps. */
  @Post('account/verify-email')
  @SignedIn()
  @UseGuards(SignedInGuard)
  async resend(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
  ) {
    const result = await this.verification.requestLink(
      context.user.id,
      context.account.id,
    );
    switch (result.outcome) {
      case 'wait':
        throw new TooManyRequestsException(
          `A link was sent a moment ago. Please wait ${result.seconds} second${result.seconds === 1 ? '' : 's'} before asking for another.`,
          result.seconds,
        );
      case 'capped':
        throw new TooManyRequestsException(
          'Your address was sent as many links as it may receive for now. Look for the last one in your mailbox (and its spam folder), or try again tomorrow.',
          secondsToNextDay(),
        );
      default:
        return reply.redirect(
          `/dashboard/account?done=verification-${result.outcome}`,
          303,
        );
    }
  }

  private page(
    reply: FastifyReply,
    token: string,
    state: VerificationState,
    justVerified: boolean,
  ) {
    const { status, title } = PAGES[state];
    return reply
      .status(status)
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .header('x-robots-tag', 'noindex')
      .view('verify-email', {
        state,
        status,
        title,
        token,
        justVerified,
        validDays: VERIFICATION_VALID_DAYS,
      } satisfies VerifyEmailPageView);
  }
}

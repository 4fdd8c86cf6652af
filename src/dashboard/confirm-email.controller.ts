import { Controller, Get, Param, Post, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { WithDeadline } from '../common/http/deadline.interceptor.js';
import { DashboardExceptionFilter } from './dashboard-exception.filter.js';
import {
  CONFIRMATION_VALID_DAYS,
  EmailRecipientsService,
  type ConfirmationState,
} from '../notifications/email/email-recipients.service.js';
import { Public } from '../auth/route-access.decorator.js';

/** confirm-email.eta: a recipient confirming (or having confirmed) their address. */
export interface ConfirmEmailPageView {
  state: ConfirmationState;
  status: number;
  title: string;
  token: string;
  justConfirmed: boolean;
  address: string | undefined;
  /** The names of the forms the address is told of. */
  forms: string[];
  validDays: number;
}

const PAGES: Record<ConfirmationState, { status: number; title: string }> = {
  pending: { status: 200, title: 'Confirm this address' },
  confirmed: { status: 200, title: 'Address confirmed' },
  expired: { status: 410, title: 'This confirmation link has expired' },
  unknown: { status: 404, title: 'This confirmation link is not valid' },
};

/**
 * The page behind the link of a confirmation mail (a notification address's double
 * opt-in), rendered with the dashboard's views. Opening it (GET) changes nothing, so mail scanners that
 * follow links confirm nothing; the page's Confirm button posts back to the same address.
 * The POST carries no CSRF token on purpose: the token in the path is a 256-bit secret
 * only the mailbox received, so another site cannot forge the request without it, and
 * whoever holds it is exactly the person entitled to confirm.
 */
@ApiExcludeController()
@WithDeadline()
@Public()
@Controller('confirm-email')
@UseFilters(DashboardExceptionFilter)
export class ConfirmEmailController {
  constructor(private readonly recipients: EmailRecipientsService) {}

  @Get(':token')
  async show(@Param('token') token: string, @Res() reply: FastifyReply) {
    return this.page(reply, token, await this.recipients.stateOf(token), false);
  }

  @Post(':token')
  async confirm(@Param('token') token: string, @Res() reply: FastifyReply) {
    const state = await this.recipients.confirm(token);
    return this.page(reply, token, state, state === 'confirmed');
  }

  private async page(
    reply: FastifyReply,
    token: string,
    state: ConfirmationState,
    justConfirmed: boolean,
  ) {
    const { status, title } = PAGES[state];
    const subject =
      state === 'pending' || state === 'confirmed'
        ? await this.recipients.subjectOf(token)
        : null;
    return reply
      .status(status)
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .header('x-robots-tag', 'noindex')
      .view('confirm-email', {
        state,
        status,
        title,
        token,
        justConfirmed,
        address: subject?.address,
        forms: subject?.forms ?? [],
        validDays: CONFIRMATION_VALID_DAYS,
      } satisfies ConfirmEmailPageView);
  }
}

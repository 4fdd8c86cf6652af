import { DuringFactorSetup } from '../session/second-step-paths.js';
import {
  Body,
  Controller,
  NotFoundException,
  Post,
  Req,
  Res,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SignedIn } from '../../auth/route-access.decorator.js';
import { WithDeadline } from '../../common/http/deadline.interceptor.js';
import {
  cookieOf,
  Dashboard,
  type DashboardContext,
} from '../dashboard-context.js';
import { DashboardExceptionFilter } from '../dashboard-exception.filter.js';
import { textOf } from '../form-body.js';
import { DashboardSessionsService } from '../session/dashboard-sessions.service.js';
import { SignedInGuard } from '../session/dashboard.guards.js';
import { SESSION_COOKIE } from '../session/session-cookie.js';

export const NOT_YOUR_ACCOUNT =
  'There is no such account among yours. It may have removed you.';

/** The header's account switcher: which of the user's accounts the session works in. */
@ApiExcludeController()
@WithDeadline()
@Controller('dashboard/account')
@UseGuards(SignedInGuard)
@UseFilters(DashboardExceptionFilter)
export class AccountSwitchController {
  constructor(private readonly sessions: DashboardSessionsService) {}

  @Post('switch')
  @SignedIn()
  @DuringFactorSetup()
  async switch(
    @Dashboard() context: DashboardContext,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
  ) {
    const accountId = textOf(body, 'accountId');
    // Only an account the user is a member of: any other id is unknown to them (404).
    if (!context.accounts.some((entry) => entry.accountId === accountId)) {
      throw new NotFoundException(NOT_YOUR_ACCOUNT);
    }
    const token = cookieOf(request, SESSION_COOKIE);
    await this.sessions.switchAccount(
      DashboardSessionsService.hashToken(token ?? ''),
      accountId,
    );
    return reply.redirect('/dashboard/forms', 303);
  }
}

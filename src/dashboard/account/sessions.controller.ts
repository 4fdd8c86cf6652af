import {
  Controller,
  Get,
  NotFoundException,
  Param,
  Post,
  Query,
  Res,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { SignedIn } from '../../auth/route-access.decorator.js';
import { WithDeadline } from '../../common/http/deadline.interceptor.js';
import { ownEntry } from '../../common/values/own-entry.js';
import type { SignInMethod } from '../session/dashboard-session.entity.js';
import { Dashboard, type DashboardContext } from '../dashboard-context.js';
import { DashboardExceptionFilter } from '../dashboard-exception.filter.js';
import { SignedInGuard } from '../session/dashboard.guards.js';
import { DashboardSessionsService } from '../session/dashboard-sessions.service.js';
import { DuringFactorSetup } from '../session/second-step-paths.js';
import { browserName } from './browser-name.js';

const NOTICES: Record<string, string> = {
  revoked: 'That session was logged out.',
  'others-revoked': 'Every other session was logged out.',
};

/** How each sign-in method reads on the page. */
export const METHOD_LABELS: Record<SignInMethod, string> = {
  password: 'Password',
  'password+totp': 'Password and two-step code',
  'password+passkey': 'Password and passkey',
  passkey: 'Passkey',
  sso: 'Single sign-on',
};

/** One row of sessions.eta. */
export interface SessionRow {
  id: string;
  browser: string;
  ipAddress: string | null;
  lastSeenAt: Date | null;
  createdAt: Date;
  method: SignInMethod;
  methodLabel: string;
  current: boolean;
}

/** sessions.eta. */
export interface SessionsPageView {
  sessions: SessionRow[];
  notice?: string;
}

/** The user's signed-in sessions: browser, address, last activity, how; revoke them. */
@ApiExcludeController()
@WithDeadline()
@Controller('dashboard/account/sessions')
@UseGuards(SignedInGuard)
@UseFilters(DashboardExceptionFilter)
@SignedIn()
@DuringFactorSetup()
export class SessionsController {
  constructor(private readonly sessions: DashboardSessionsService) {}

  @Get()
  async page(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Query('done') done?: string,
  ) {
    const rows = await this.sessions.listOf(context.user.id);
    return reply.view('sessions', {
      sessions: rows.map((session) => ({
        id: DashboardSessionsService.publicId(session),
        browser: browserName(session.userAgent),
        ipAddress: session.ipAddress,
        lastSeenAt: session.lastSeenAt,
        createdAt: session.createdAt,
        method: session.method,
        methodLabel: METHOD_LABELS[session.method] ?? session.method,
        current: session.tokenHash === context.session.tokenHash,
      })),
      notice: ownEntry(NOTICES, done),
    } satisfies SessionsPageView);
  }

  @Post('others/revoke')
  async revokeOthers(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
  ) {
    await this.sessions.endOthers(context.user.id, context.session.tokenHash);
    return reply.redirect(
      '/dashboard/account/sessions?done=others-revoked',
      303,
    );
  }

  @Post(':id/revoke')
  async revoke(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
  ) {
    if (!(await this.sessions.endById(context.user.id, id))) {
      throw new NotFoundException(
        'There is no such session: it may have ended already.',
      );
    }
    if (DashboardSessionsService.publicId(context.session) === id) {
      return reply.redirect('/dashboard/login?done=signed-out', 303);
    }
    return reply.redirect('/dashboard/account/sessions?done=revoked', 303);
  }
}

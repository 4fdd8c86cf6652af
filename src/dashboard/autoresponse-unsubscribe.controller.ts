import { Controller, Get, Param, Post, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/route-access.decorator.js';
import { WithDeadline } from '../common/http/deadline.interceptor.js';
import {
  AutoresponseUnsubscribeService,
  UNSUBSCRIBE_PATH,
} from '../notifications/autoresponder/autoresponse-unsubscribe.service.js';
import { DashboardExceptionFilter } from './dashboard-exception.filter.js';

type UnsubscribeState = 'ask' | 'stopped' | 'unknown';

/** autoresponse-unsubscribe.eta */
export interface UnsubscribePageView {
  state: UnsubscribeState;
  status: number;
  title: string;
  token: string;
}

const PAGES: Record<UnsubscribeState, { status: number; title: string }> = {
  ask: { status: 200, title: 'Stop automatic replies' },
  stopped: { status: 200, title: 'Automatic replies stopped' },
  unknown: { status: 404, title: 'This link is not valid' },
};

/**
 * The page behind an autoresponse's List-Unsubscribe link (RFC 8058). Opening it (GET)
 * changes nothing, so link scanners stop nothing; its Stop button and a mail client's
 * one-click request are the same POST. That POST carries no CSRF token on purpose: the
 * signed token in the path is the proof, and only the mailbox received it.
 */
@ApiExcludeController()
@WithDeadline()
@Public()
@Controller(UNSUBSCRIBE_PATH)
@UseFilters(DashboardExceptionFilter)
export class AutoresponseUnsubscribeController {
  constructor(private readonly unsubscribes: AutoresponseUnsubscribeService) {}

  @Get(':token')
  async show(@Param('token') token: string, @Res() reply: FastifyReply) {
    const subject = this.unsubscribes.verify(token);
    const state: UnsubscribeState =
      subject === null
        ? 'unknown'
        : (await this.unsubscribes.isStopped(subject))
          ? 'stopped'
          : 'ask';
    return this.page(reply, token, state);
  }

  @Post(':token')
  async stop(@Param('token') token: string, @Res() reply: FastifyReply) {
    const subject = this.unsubscribes.verify(token);
    if (subject !== null) await this.unsubscribes.stop(subject);
    return this.page(reply, token, subject === null ? 'unknown' : 'stopped');
  }

  private page(reply: FastifyReply, token: string, state: UnsubscribeState) {
    const { status, title } = PAGES[state];
    return reply
      .status(status)
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .header('x-robots-tag', 'noindex')
      .view('autoresponse-unsubscribe', {
        state,
        status,
        title,
        token,
      } satisfies UnsubscribePageView);
  }
}

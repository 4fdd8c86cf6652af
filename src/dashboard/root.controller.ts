import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { WithDeadline } from '../common/http/deadline.interceptor.js';
import { DASHBOARD_PREFIX } from './dashboard-paths.js';
import { Public } from '../auth/route-access.decorator.js';

/** The bare address of an installation leads a person to the dashboard. */
@ApiExcludeController()
@WithDeadline()
@Public()
@Controller()
export class RootController {
  @Get()
  home(@Res() reply: FastifyReply) {
    return reply.redirect(DASHBOARD_PREFIX, 302);
  }
}

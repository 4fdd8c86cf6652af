import {
  Body,
  Controller,
  Get,
  HttpException,
  Param,
  Post,
  Query,
  Res,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { isRole } from '../../auth/permissions.js';
import { Requires, SignedIn } from '../../auth/route-access.decorator.js';
import { WithDeadline } from '../../common/http/deadline.interceptor.js';
import {
  TooManyRequestsException,
  ValidationFailedException,
} from '../../common/errors/errors.js';
import { ownEntry } from '../../common/values/own-entry.js';
import { InvitationsService } from '../../members/invitations.service.js';
import type { MemberActor } from '../../members/member-actor.js';
import { MembersService } from '../../members/members.service.js';
import {
  Dashboard,
  type DashboardContext,
  memberPrincipal,
} from '../dashboard-context.js';
import { DashboardExceptionFilter } from '../dashboard-exception.filter.js';
import { textOf } from '../form-body.js';
import { addValidationErrors, PageErrors, sentence } from '../page-errors.js';
import { SignedInGuard } from '../session/dashboard.guards.js';
import {
  MembersPageBuilder,
  type MembersPageState,
} from './members-page.builder.js';

const NOTICES: Record<string, string> = {
  invited: 'The invitation is on its way.',
  resent:
    'The invitation was sent again, with a new link: the old one no longer works.',
  revoked: 'The invitation was revoked: its link no longer works.',
  'role-changed': 'The role was changed. It applies from their next request.',
  removed: 'The member was removed. They lose access from their next request.',
  renamed: 'The account was renamed.',
  joined: 'Welcome: you joined the account.',
};

/** The member acting on the Members page. */
function actorOf(context: DashboardContext): MemberActor {
  return {
    kind: 'member',
    accountId: context.account.id,
    role: context.account.role,
    userId: context.user.id,
    label: context.user.email,
    by: memberPrincipal(context),
  };
}

/**
 * The Members page: the account's members and pending invitations for every role; inviting,
 * resending, revoking, changing roles and removing for owners and admins; leaving for
 * anyone. Refusals of a rule (403 beyond one's role, 409 for the last owner) are error pages.
 */
@ApiExcludeController()
@WithDeadline()
@Controller('dashboard/members')
@UseGuards(SignedInGuard)
@UseFilters(DashboardExceptionFilter)
export class DashboardMembersController {
  constructor(
    private readonly members: MembersService,
    private readonly invitations: InvitationsService,
    private readonly pages: MembersPageBuilder,
  ) {}

  @Get()
  @Requires('forms.read')
  async page(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Query('done') done?: string,
  ) {
    return this.render(context, reply, 200, {
      notice: ownEntry(NOTICES, done),
    });
  }

  @Post('invitations')
  @Requires('members.manage')
  async invite(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
  ) {
    const invite = { email: textOf(body, 'email'), role: textOf(body, 'role') };
    try {
      await this.invitations.invite(actorOf(context), invite);
    } catch (error) {
      return this.refusedInvite(context, reply, invite, error);
    }
    return reply.redirect('/dashboard/members?done=invited', 303);
  }

  @Post('invitations/:id/resend')
  @Requires('members.manage')
  async resend(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
  ) {
    await this.invitations.resend(actorOf(context), id);
    return reply.redirect('/dashboard/members?done=resent', 303);
  }

  @Post('invitations/:id/revoke')
  @Requires('members.manage')
  async revoke(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
  ) {
    await this.invitations.revoke(actorOf(context), id);
    return reply.redirect('/dashboard/members?done=revoked', 303);
  }

  @Post('name')
  @Requires('members.manage')
  async rename(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
  ) {
    const name = textOf(body, 'name');
    try {
      await this.members.rename(
        context.account.id,
        name,
        memberPrincipal(context),
      );
    } catch (error) {
      const errors = addValidationErrors(new PageErrors(), error, 'name');
      return this.render(context, reply, 400, { nameInput: name, errors });
    }
    return reply.redirect('/dashboard/members?done=renamed', 303);
  }

  /** Leaving the account the session works in; the last owner cannot (409 page). */
  @Post('leave')
  @SignedIn()
  async leave(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
  ) {
    await this.members.leave(
      context.account.id,
      context.user.id,
      memberPrincipal(context),
    );
    // The next page finds the session's account gone and moves it to another, or ends it.
    return reply.redirect('/dashboard/forms', 303);
  }

  @Post(':userId/role')
  @Requires('members.manage')
  async changeRole(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('userId') userId: string,
    @Body() body: unknown,
  ) {
    const role = textOf(body, 'role');
    if (!isRole(role)) {
      throw new ValidationFailedException([
        'Choose one of the roles in the list',
      ]);
    }
    await this.members.changeRole(actorOf(context), userId, role);
    return reply.redirect('/dashboard/members?done=role-changed', 303);
  }

  @Post(':userId/remove')
  @Requires('members.manage')
  async remove(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('userId') userId: string,
  ) {
    await this.members.remove(actorOf(context), userId);
    return reply.redirect('/dashboard/members?done=removed', 303);
  }

  /**
   * A refused invitation: the page again, what was typed kept, the reason beside the
   * input it is about, with the status the API would answer (429 with Retry-After).
   */
  private refusedInvite(
    context: DashboardContext,
    reply: FastifyReply,
    invite: { email: string; role: string },
    error: unknown,
  ) {
    if (!(error instanceof HttpException) || error.getStatus() === 403) {
      throw error;
    }
    const errors = new PageErrors();
    if (error instanceof ValidationFailedException) {
      for (const message of error.errors) {
        errors.add(
          sentence(message),
          message.startsWith('role') ? 'role' : 'email',
        );
      }
    } else {
      errors.add(sentence(error.message), 'email');
    }
    if (error instanceof TooManyRequestsException) {
      void reply.header('retry-after', String(error.retryAfterSeconds));
    }
    return this.render(context, reply, error.getStatus(), { invite, errors });
  }

  private async render(
    context: DashboardContext,
    reply: FastifyReply,
    status: number,
    state: MembersPageState,
  ) {
    return reply
      .status(status)
      .view('members', await this.pages.build(context, state));
  }
}

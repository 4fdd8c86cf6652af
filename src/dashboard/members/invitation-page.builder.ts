// What the invitation page (invitation.eta) shows: the invitation, and what the visitor can
// do with it — accept, log in, choose a password, or learn that it is for someone else —
// or why the link no longer works (410) or never did (404).
import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccountsService } from '../../accounts/accounts.service.js';
import {
  InvitationLinksService,
  type InvitationState,
} from '../../members/invitation-links.service.js';
import { INVITATION_VALID_DAYS } from '../../members/invitations.service.js';
import { addTemplateLocals, cookieOf } from '../dashboard-context.js';
import type { PageErrors } from '../page-errors.js';
import { DashboardSessionsService } from '../session/dashboard-sessions.service.js';
import { SESSION_COOKIE } from '../session/session-cookie.js';
import { ROLE_LABELS } from './members-page.builder.js';

/** Who opened a pending invitation. */
export type InvitationVisitor =
  /** Signed in as the invited address: Accept. */
  | 'invitee'
  /** Signed in as another address: a page saying so. */
  | 'someone-else'
  /** Signed out, and the address has a user: log in first. */
  | 'existing-user'
  /** Signed out, and the address has a user in no account any more: their password here. */
  | 'returning-user'
  /** Signed out, and the address has no user: choose a password. */
  | 'new-user';

/** invitation.eta. */
export interface InvitationPageView {
  state: InvitationState;
  status: number;
  title: string;
  /** The page's own path, where its forms post. */
  path: string;
  visitor?: InvitationVisitor;
  invitation?: {
    email: string;
    accountName: string;
    roleLabel: string;
    invitedBy: string;
  };
  /** The sign-in page, coming back here, the address filled in. */
  loginHref?: string;
  validDays: number;
  errors?: PageErrors;
}

const PAGES: Record<InvitationState, { status: number; title: string }> = {
  pending: { status: 200, title: 'You are invited' },
  accepted: { status: 410, title: 'This invitation was already used' },
  revoked: { status: 410, title: 'This invitation was revoked' },
  expired: { status: 410, title: 'This invitation has expired' },
  unknown: { status: 404, title: 'This invitation link is not valid' },
};

@Injectable()
export class InvitationPageBuilder {
  constructor(
    private readonly links: InvitationLinksService,
    private readonly sessions: DashboardSessionsService,
    private readonly accounts: AccountsService,
  ) {}

  /** Renders the page for `token`; `refused`: a sign-up post that was refused. */
  async send(
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
    refused?: { status: number; errors: PageErrors },
  ) {
    const opened = await this.links.open(token);
    const path = `/dashboard/invitations/${encodeURIComponent(token)}`;
    const page = PAGES[opened.state];
    const view: InvitationPageView = {
      state: opened.state,
      status: page.status,
      title: page.title,
      path,
      validDays: INVITATION_VALID_DAYS,
    };
    const invitation = opened.invitation;
    if (opened.state === 'pending' && invitation) {
      view.invitation = {
        email: invitation.email,
        accountName: invitation.accountName,
        roleLabel: ROLE_LABELS[invitation.role],
        invitedBy: invitation.invitedBy,
      };
      const signedIn = await this.signedInUser(request, reply);
      view.visitor = signedIn
        ? signedIn.email === invitation.email
          ? 'invitee'
          : 'someone-else'
        : !invitation.userExists
          ? 'new-user'
          : invitation.userHasAccounts
            ? 'existing-user'
            : 'returning-user';
      view.loginHref = `/dashboard/login?next=${encodeURIComponent(path)}&email=${encodeURIComponent(invitation.email)}`;
      view.errors = refused?.errors;
    }
    return reply
      .status(refused?.status ?? page.status)
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .header('x-robots-tag', 'noindex')
      .view('invitation', view);
  }

  /** After joining: the session works in the account joined. */
  async workIn(request: FastifyRequest, accountId: string): Promise<void> {
    const session = await this.sessions.find(cookieOf(request, SESSION_COOKIE));
    if (session) {
      await this.sessions.switchAccount(session.tokenHash, accountId);
    }
  }

  /**
   * The user signed in on this browser, if any, with the session's CSRF token and the
   * header's address handed to the templates (this page is public, so no guard did it).
   */
  private async signedInUser(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<{ id: string; email: string } | null> {
    const session = await this.sessions.find(cookieOf(request, SESSION_COOKIE));
    if (!session) return null;
    const user = await this.accounts.findUserById(session.userId);
    if (!user) return null;
    addTemplateLocals(reply, {
      user: { id: user.id, email: user.email },
      csrfToken: this.sessions.csrfToken(session),
    });
    return { id: user.id, email: user.email };
  }
}

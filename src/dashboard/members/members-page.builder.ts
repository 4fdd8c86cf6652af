// What the Members page shows (members.eta): the account's members with what the viewer
// may change of each, the pending invitations, the invite form and the account's name.
import { Injectable } from '@nestjs/common';
import {
  roleAtMost,
  roleHas,
  ROLES,
  type Role,
} from '../../auth/permissions.js';
import {
  INVITATION_VALID_DAYS,
  InvitationsService,
} from '../../members/invitations.service.js';
import { rolesGivenBy } from '../../members/member-actor.js';
import { MembersService } from '../../members/members.service.js';
import type { DashboardContext } from '../dashboard-context.js';
import type { PageErrors } from '../page-errors.js';

export const ROLE_LABELS: Readonly<Record<Role, string>> = {
  viewer: 'Viewer',
  editor: 'Editor',
  developer: 'Developer',
  admin: 'Admin',
  owner: 'Owner',
};

/** One line per role, in the words of docs/teams.md's table. */
const ROLE_HELP: ReadonlyArray<{ role: Role; text: string }> = [
  {
    role: 'viewer',
    text: 'reads forms and their submissions, and exports them.',
  },
  {
    role: 'editor',
    text: 'also works on submissions (spam folder) and deletes them.',
  },
  {
    role: 'developer',
    text: 'also changes and deletes forms, manages keys, domains and notifications, and erases personal data.',
  },
  {
    role: 'admin',
    text: 'also invites, changes and removes members (not owners), and manages security settings.',
  },
  {
    role: 'owner',
    text: 'also adds, changes and removes owners, and may delete the account.',
  },
];

export interface MemberRow {
  userId: string;
  email: string;
  role: Role;
  createdAt: Date;
  lastSignInAt: Date | null;
  /** The row is the viewer's own (they may leave). */
  you: boolean;
  /** The roles the viewer may give this member; empty: they may not change it. */
  roleChoices: Role[];
  removable: boolean;
}

export interface InvitationRow {
  id: string;
  email: string;
  role: Role;
  invitedBy: string;
  expiresAt: Date;
  /** The viewer may resend and revoke it. */
  manageable: boolean;
}

/** What a refused post typed, and what to say. */
export interface MembersPageState {
  invite?: { email: string; role: string };
  nameInput?: string;
  errors?: PageErrors;
  notice?: string;
}

/** members.eta. */
export interface MembersPageView {
  accountName: string;
  members: MemberRow[];
  invitations: InvitationRow[];
  /** The roles the viewer may invite with; empty: no invite form. */
  inviteRoles: Role[];
  invite: { email: string; role: string };
  canRename: boolean;
  nameInput: string;
  mailOff: boolean;
  validDays: number;
  roleLabels: typeof ROLE_LABELS;
  roleHelp: typeof ROLE_HELP;
  errors?: PageErrors;
  notice?: string;
}

@Injectable()
export class MembersPageBuilder {
  constructor(
    private readonly members: MembersService,
    private readonly invitations: InvitationsService,
  ) {}

  async build(
    context: DashboardContext,
    state: MembersPageState = {},
  ): Promise<MembersPageView> {
    const { account, user } = context;
    const manages = roleHas(account.role, 'members.manage');
    const [members, pending, accountName] = await Promise.all([
      this.members.list(account.id),
      this.invitations.listPending(account.id),
      this.members.accountName(account.id),
    ]);
    // Owners are managed by owners only; others up to the viewer's own role.
    const mayTouch = (role: Role) =>
      manages &&
      roleAtMost(role, account.role) &&
      (role !== 'owner' || account.role === 'owner');
    const inviteRoles = manages ? rolesGivenBy(account, ROLES) : [];
    return {
      accountName,
      members: members.map((member) => {
        const you = member.userId === user.id;
        // One's own role may be lowered too (an owner stepping down while another remains).
        const touchable = mayTouch(member.role);
        return {
          userId: member.userId,
          email: member.email,
          role: member.role,
          createdAt: member.createdAt,
          lastSignInAt: member.lastSignInAt,
          you,
          roleChoices: touchable ? inviteRoles : [],
          removable: touchable && !you,
        };
      }),
      invitations: pending.map((invitation) => ({
        id: invitation.id,
        email: invitation.email,
        role: invitation.role,
        invitedBy: invitation.invitedBy,
        expiresAt: invitation.expiresAt,
        manageable: mayTouch(invitation.role),
      })),
      inviteRoles,
      invite: state.invite ?? { email: '', role: 'viewer' },
      canRename: manages,
      nameInput: state.nameInput ?? accountName,
      mailOff: !this.invitations.mailEnabled,
      validDays: INVITATION_VALID_DAYS,
      roleLabels: ROLE_LABELS,
      roleHelp: ROLE_HELP,
      errors: state.errors,
      notice: state.notice,
    };
  }
}

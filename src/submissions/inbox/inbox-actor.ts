// Who changes a submission in the inbox: a member (dashboard) or a key (API). Notes remember
// their author by it; the assignee mail is skipped when people assign themselves.
import type { ApiPrincipal } from '../../auth/principal.js';
import { roleHas, type Role } from '../../auth/permissions.js';

export interface InboxActor {
  accountId: string;
  /** The member acting; null for a key. */
  userId: string | null;
  /** The key acting (an account key's id, `form:<formId>` for a form key); null for a member. */
  key: string | null;
  role: Role;
}

export function actorOf(principal: ApiPrincipal): InboxActor {
  switch (principal.kind) {
    case 'member':
      return {
        accountId: principal.accountId,
        userId: principal.userId,
        key: null,
        role: principal.role,
      };
    case 'account':
      return {
        accountId: principal.accountId,
        userId: null,
        key: principal.keyId,
        role: principal.role,
      };
    case 'form':
      return {
        accountId: principal.accountId,
        userId: null,
        key: `form:${principal.formId}`,
        role: 'developer',
      };
    default:
      return principal satisfies never;
  }
}

/** Admins (and owners) may edit or delete anyone's note; others their own only. */
export function mayEditNote(
  actor: InboxActor,
  note: { authorUserId: string | null; authorKey: string | null },
): boolean {
  if (roleHas(actor.role, 'members.manage')) return true;
  if (actor.userId !== null) return note.authorUserId === actor.userId;
  return actor.key !== null && note.authorKey === actor.key;
}

// Who an event says acted: turned from the request's principal, or named for the CLI and
// the service itself.
import type { ApiPrincipal } from '../auth/principal.js';
import type { ActorType } from './audit-actions.js';

export interface AuditActor {
  type: ActorType;
  /** The member's user id, the key's id (a form key: its form's id); null for the CLI and the system. */
  id: string | null;
  /** The member's email, the key's prefix, "cli" or "system". */
  label: string;
}

/** Where the change came from; null for the CLI and the system. */
export interface AuditClient {
  ip: string | null;
  userAgent: string | null;
}

export const CLI_ACTOR: AuditActor = { type: 'cli', id: null, label: 'cli' };
export const SYSTEM_ACTOR: AuditActor = {
  type: 'system',
  id: null,
  label: 'system',
};

export function actorOf(principal: ApiPrincipal): AuditActor {
  switch (principal.kind) {
    case 'member':
      return {
        type: 'member',
        id: principal.userId,
        label: principal.label ?? '',
      };
    case 'account':
      return {
        type: 'account-key',
        id: principal.keyId,
        label: principal.label ?? '',
      };
    case 'form':
      return {
        type: 'form-key',
        id: principal.formId,
        label: principal.label ?? '',
      };
    default:
      return principal satisfies never;
  }
}

export function clientOf(principal: ApiPrincipal): AuditClient {
  return principal.client ?? { ip: null, userAgent: null };
}

/** A member who is not (yet) a request's principal: signing in, accepting an invitation. */
export function memberActor(userId: string, email: string): AuditActor {
  return { type: 'member', id: userId, label: email };
}

/** The actor (or principal) a writer was given, as an actor. */
export function asActor(who: ApiPrincipal | AuditActor): AuditActor {
  return 'kind' in who ? actorOf(who) : who;
}

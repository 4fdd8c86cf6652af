import {
  PREVIOUS_FORM_KEY_PERMISSIONS,
  roleHas,
  type KeyRole,
  type Permission,
  type Role,
} from './permissions.js';

/**
 * Who a management request acts for: an API key as established by ApiKeyGuard, or a
 * signed-in member of an account in the dashboard.
 * - a form key reaches its own form as a `developer` would; the previous key of a
 *   rotation's grace (`previousKey`) only reads the form and reads and works submissions;
 * - an account key reaches every form of its account with its role;
 * - a member reaches every form of the account the session works in, with their role.
 * `keyExpiresAt`: when the key itself stops working, if it does — what it creates or rotates
 * may not outlive it.
 */
export type ApiPrincipal = (
  | {
      kind: 'form';
      accountId: string;
      formId: string;
      previousKey: boolean;
      keyExpiresAt?: Date;
    }
  | {
      kind: 'account';
      accountId: string;
      keyId: string;
      role: KeyRole;
      keyExpiresAt?: Date;
    }
  | { kind: 'member'; accountId: string; userId: string; role: Role }
) &
  PrincipalTrace;

/**
 * What the audit log records of whoever is behind a request (docs/audit.md): `label`, the
 * member's email or the key's prefix; `client`, the address and browser it came from.
 */
export interface PrincipalTrace {
  label?: string;
  client?: { ip: string | null; userAgent: string | null };
}

export const PRINCIPAL = Symbol('formgate.principal');

export type RequestWithPrincipal = { [PRINCIPAL]?: ApiPrincipal };

/** The role a form key has on its own form. */
export const FORM_KEY_ROLE: KeyRole = 'developer';

/**
 * The one form a principal is confined to, or undefined when it reaches every form of
 * its account (an account key, a member).
 */
export function confinedToForm(principal: ApiPrincipal): string | undefined {
  switch (principal.kind) {
    case 'form':
      return principal.formId;
    case 'account':
    case 'member':
      return undefined;
    default:
      return principal satisfies never;
  }
}

/** true when the principal's role (or, for a retiring form key, its grace) holds `permission`. */
export function principalCan(
  principal: ApiPrincipal,
  permission: Permission,
): boolean {
  switch (principal.kind) {
    case 'form':
      return principal.previousKey
        ? PREVIOUS_FORM_KEY_PERMISSIONS.has(permission)
        : roleHas(FORM_KEY_ROLE, permission);
    case 'account':
    case 'member':
      return roleHas(principal.role, permission);
    default:
      return principal satisfies never;
  }
}

/** The most a principal may hand out to a key it creates (a form key creates none). */
export function roleOf(principal: ApiPrincipal): Role {
  return principal.kind === 'form' ? FORM_KEY_ROLE : principal.role;
}

// The one permission list and the one role matrix, applied alike to people (members, in the
// dashboard) and to keys (on the API). docs/teams.md shows the same table to readers.

/** Everything a route may require, in the order docs/teams.md lists them. */
export const PERMISSIONS = [
  'forms.read',
  'submissions.read',
  'submissions.export',
  'submissions.work',
  'submissions.delete',
  'forms.write',
  'forms.delete',
  'keys.manage',
  'domains.manage',
  'notifications.manage',
  'erasure',
  'members.manage',
  'security.manage',
  'audit.read',
  'owners.manage',
  'account.delete',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Roles from the least to the most trusted: each has every permission of those before it. */
export const ROLES = [
  'viewer',
  'editor',
  'developer',
  'admin',
  'owner',
] as const;
export type Role = (typeof ROLES)[number];

/** The roles an account key may have: no key is ever an owner. */
export const KEY_ROLES = ['viewer', 'editor', 'developer', 'admin'] as const;
export type KeyRole = (typeof KEY_ROLES)[number];

/** The role of a key made before roles existed, or by the CLI. */
export const LEGACY_KEY_ROLE: KeyRole = 'admin';
/** The role of a key created over the API without one. */
export const DEFAULT_KEY_ROLE: KeyRole = 'developer';

/** What each role adds to the one before it. */
const GRANTED: Record<Role, readonly Permission[]> = {
  viewer: ['forms.read', 'submissions.read', 'submissions.export'],
  editor: ['submissions.work', 'submissions.delete'],
  developer: [
    'forms.write',
    'forms.delete',
    'keys.manage',
    'domains.manage',
    'notifications.manage',
    'erasure',
  ],
  admin: ['members.manage', 'security.manage', 'audit.read'],
  owner: ['owners.manage', 'account.delete'],
};

/** The matrix: every permission each role holds. */
export const ROLE_PERMISSIONS: Readonly<Record<Role, ReadonlySet<Permission>>> =
  Object.fromEntries(
    ROLES.map((role, rank) => [
      role,
      new Set(ROLES.slice(0, rank + 1).flatMap((lower) => GRANTED[lower])),
    ]),
  ) as unknown as Record<Role, ReadonlySet<Permission>>;

/**
 * What a form's previous key may do during a rotation's grace: read its form and read and
 * work its submissions, never change the form or its keys (a leaked key being retired must
 * not be able to lock the owner out).
 */
export const PREVIOUS_FORM_KEY_PERMISSIONS: ReadonlySet<Permission> = new Set([
  'forms.read',
  'submissions.read',
  'submissions.export',
  'submissions.work',
  'submissions.delete',
]);

/** What a refused request was trying to do, for "This key cannot …" and the 403 page. */
export const PERMISSION_ACTIONS: Readonly<Record<Permission, string>> = {
  'forms.read': 'read forms',
  'submissions.read': 'read submissions',
  'submissions.export': 'export submissions',
  'submissions.work': 'work on submissions',
  'submissions.delete': 'delete submissions',
  'forms.write': 'change forms',
  'forms.delete': 'delete forms',
  'keys.manage': 'manage keys',
  'domains.manage': 'manage domains',
  'notifications.manage': 'manage notifications',
  erasure: 'erase personal data',
  'members.manage': 'manage members',
  'security.manage': 'manage security settings',
  'audit.read': 'read the audit log',
  'owners.manage': 'manage owners',
  'account.delete': 'delete the account',
};

export function isRole(value: unknown): value is Role {
  return (
    typeof value === 'string' && (ROLES as readonly string[]).includes(value)
  );
}

export function isKeyRole(value: unknown): value is KeyRole {
  return (
    typeof value === 'string' &&
    (KEY_ROLES as readonly string[]).includes(value)
  );
}

export function roleHas(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].has(permission);
}

/** true when `role` is no more trusted than `limit` (a creator hands out at most its own). */
export function roleAtMost(role: Role, limit: Role): boolean {
  return ROLES.indexOf(role) <= ROLES.indexOf(limit);
}

/** The more trusted of two roles. */
export function higherRole(a: Role, b: Role): Role {
  return roleAtMost(a, b) ? b : a;
}

/** The API's `readOnly` is the viewer role under its older name. */
export function keyRoleOf(input: {
  role?: KeyRole;
  readOnly?: boolean;
}): KeyRole | undefined {
  if (input.role !== undefined) return input.role;
  if (input.readOnly === true) return 'viewer';
  return undefined;
}

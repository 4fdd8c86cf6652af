import {
  keyRoleOf,
  PERMISSIONS,
  ROLE_PERMISSIONS,
  ROLES,
  roleAtMost,
  roleHas,
  type Permission,
  type Role,
} from './permissions.js';

/** The table of docs/teams.md, row by row: the lowest role that holds each permission. */
const LOWEST: Record<Permission, Role> = {
  'forms.read': 'viewer',
  'submissions.read': 'viewer',
  'submissions.export': 'viewer',
  'submissions.work': 'editor',
  'submissions.delete': 'editor',
  'forms.write': 'developer',
  'forms.delete': 'developer',
  'keys.manage': 'developer',
  'domains.manage': 'developer',
  'notifications.manage': 'developer',
  erasure: 'developer',
  'members.manage': 'admin',
  'security.manage': 'admin',
  'audit.read': 'admin',
  'owners.manage': 'owner',
  'account.delete': 'owner',
};

describe('the role matrix', () => {
  it('gives each role exactly the permissions of its row and those above it', () => {
    for (const role of ROLES) {
      for (const permission of PERMISSIONS) {
        expect(roleHas(role, permission), `${role} ${permission}`).toBe(
          roleAtMost(LOWEST[permission], role),
        );
      }
    }
    expect(ROLE_PERMISSIONS.owner.size).toBe(PERMISSIONS.length);
  });

  it('orders roles from viewer to owner', () => {
    expect(roleAtMost('viewer', 'owner')).toBe(true);
    expect(roleAtMost('developer', 'developer')).toBe(true);
    expect(roleAtMost('admin', 'developer')).toBe(false);
  });

  it('reads readOnly as the viewer role, and a given role first', () => {
    expect(keyRoleOf({ readOnly: true })).toBe('viewer');
    expect(keyRoleOf({ readOnly: false })).toBeUndefined();
    expect(keyRoleOf({})).toBeUndefined();
    expect(keyRoleOf({ role: 'editor' })).toBe('editor');
  });
});

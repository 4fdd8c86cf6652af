import { confinedToForm, principalCan, roleOf } from './principal.js';

const formKey = {
  kind: 'form',
  accountId: 'a',
  formId: 'f',
  previousKey: false,
} as const;
const previousKey = { ...formKey, previousKey: true } as const;

describe('confinedToForm', () => {
  it('confines a form key to its own form', () => {
    expect(confinedToForm(formKey)).toBe('f');
    expect(confinedToForm(previousKey)).toBe('f');
  });

  it('lets an account key and a member reach every form of the account', () => {
    expect(
      confinedToForm({
        kind: 'account',
        accountId: 'a',
        keyId: 'k',
        role: 'viewer',
      }),
    ).toBeUndefined();
    expect(
      confinedToForm({
        kind: 'member',
        accountId: 'a',
        userId: 'u',
        role: 'owner',
      }),
    ).toBeUndefined();
  });
});

describe('principalCan', () => {
  it('lets a form key act as a developer on its form', () => {
    expect(principalCan(formKey, 'forms.write')).toBe(true);
    expect(principalCan(formKey, 'keys.manage')).toBe(true);
    expect(principalCan(formKey, 'members.manage')).toBe(false);
    expect(roleOf(formKey)).toBe('developer');
  });

  it('lets a previous form key only read the form and read and work submissions', () => {
    for (const permission of [
      'forms.read',
      'submissions.read',
      'submissions.export',
      'submissions.work',
      'submissions.delete',
    ] as const) {
      expect(principalCan(previousKey, permission)).toBe(true);
    }
    for (const permission of [
      'forms.write',
      'forms.delete',
      'keys.manage',
      'notifications.manage',
      'domains.manage',
      'erasure',
    ] as const) {
      expect(principalCan(previousKey, permission)).toBe(false);
    }
  });

  it('gives an account key and a member what their role holds', () => {
    const viewer = {
      kind: 'account',
      accountId: 'a',
      keyId: 'k',
      role: 'viewer',
    } as const;
    expect(principalCan(viewer, 'submissions.export')).toBe(true);
    expect(principalCan(viewer, 'submissions.work')).toBe(false);
    const admin = {
      kind: 'member',
      accountId: 'a',
      userId: 'u',
      role: 'admin',
    } as const;
    expect(principalCan(admin, 'members.manage')).toBe(true);
    expect(principalCan(admin, 'owners.manage')).toBe(false);
    expect(roleOf(admin)).toBe('admin');
  });
});

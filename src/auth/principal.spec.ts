import { confinedToForm, refusesMethod } from './principal.js';

describe('confinedToForm', () => {
  it('confines a form key to its own form', () => {
    expect(confinedToForm({ kind: 'form', accountId: 'a', formId: 'f' })).toBe(
      'f',
    );
  });

  it('lets an account key and the owner reach every form of the account', () => {
    expect(
      confinedToForm({
        kind: 'account',
        accountId: 'a',
        keyId: 'k',
        readOnly: false,
      }),
    ).toBeUndefined();
    expect(confinedToForm({ kind: 'owner', accountId: 'a' })).toBeUndefined();
  });
});

describe('refusesMethod', () => {
  const readOnly = {
    kind: 'account',
    accountId: 'a',
    keyId: 'k',
    readOnly: true,
  } as const;

  it('lets a read-only key read and nothing else', () => {
    expect(refusesMethod(readOnly, 'GET')).toBe(false);
    expect(refusesMethod(readOnly, 'head')).toBe(false);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      expect(refusesMethod(readOnly, method)).toBe(true);
    }
  });

  it('refuses no method to a full account key, a form key or the owner', () => {
    for (const principal of [
      { ...readOnly, readOnly: false },
      { kind: 'form', accountId: 'a', formId: 'f' } as const,
      { kind: 'owner', accountId: 'a' } as const,
    ]) {
      expect(refusesMethod(principal, 'DELETE')).toBe(false);
    }
  });
});

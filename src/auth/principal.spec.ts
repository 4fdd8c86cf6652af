import { confinedToForm } from './principal.js';

describe('confinedToForm', () => {
  it('confines a form key to its own form', () => {
    expect(confinedToForm({ kind: 'form', accountId: 'a', formId: 'f' })).toBe(
      'f',
    );
  });

  it('lets an account key and the owner reach every form of the account', () => {
    expect(
      confinedToForm({ kind: 'account', accountId: 'a', keyId: 'k' }),
    ).toBeUndefined();
    expect(confinedToForm({ kind: 'owner', accountId: 'a' })).toBeUndefined();
  });
});

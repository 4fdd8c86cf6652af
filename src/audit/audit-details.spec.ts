import { CHANGED, changesOf } from './audit-details.js';

describe('changesOf', () => {
  it('gives the changed properties before and after, and only those', () => {
    expect(
      changesOf(
        { name: 'A', retentionDays: 30, redirectUrl: null },
        { name: 'B', retentionDays: 30, redirectUrl: null },
        ['name', 'retentionDays', 'redirectUrl'],
      ),
    ).toEqual({ name: { before: 'A', after: 'B' } });
  });

  it('leaves out properties the change did not give', () => {
    expect(changesOf({ name: 'A' }, {}, ['name'])).toEqual({});
  });

  it('gives a secret only as "changed"', () => {
    expect(
      changesOf({ secret: 'old' }, { secret: 'new' }, ['secret'], ['secret']),
    ).toEqual({ secret: CHANGED });
  });
});

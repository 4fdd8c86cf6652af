import type { SqlDialect } from '../../common/database/sql-statement.js';
import { InboxSql } from './inbox-sql.js';
import { mayEditNote, type InboxActor } from './inbox-actor.js';

// The inbox's statements under review on both dialects: changes confined to the form's
// listed rows (locked first on MySQL/MariaDB), reads keyed by the page's ids.
describe.each<SqlDialect>(['mysql', 'sqlite'])('inbox SQL on %s', (dialect) => {
  const sql = new InboxSql(dialect);

  it('locks, sets a status and an assignee on listed rows of a form', () => {
    expect(sql.lockRows('f', ['a', 'b'])).toMatchSnapshot();
    expect(sql.setStatus('f', ['a', 'b'], 'closed')).toMatchSnapshot();
    expect(sql.setAssignee('f', ['a'], null)).toMatchSnapshot();
  });

  it('adds and removes labels', () => {
    expect(sql.addLabels(['a', 'b'], ['l1'])).toMatchSnapshot();
    expect(sql.removeLabels(['a'], ['l1'])).toMatchSnapshot();
    expect(sql.removeLabels(['a'], undefined, ['l2'])).toMatchSnapshot();
  });

  it('reads what a page shows', () => {
    expect(sql.labelsOf(['a'])).toMatchSnapshot();
    expect(sql.noteCounts(['a', 'b'])).toMatchSnapshot();
    expect(sql.usersOf(['u'])).toMatchSnapshot();
    expect(sql.membership('acc', 'u')).toMatchSnapshot();
  });
});

describe('who may edit a note', () => {
  const actor = (over: Partial<InboxActor>): InboxActor => ({
    accountId: 'acc',
    userId: null,
    key: null,
    role: 'editor',
    ...over,
  });
  const byUser = { authorUserId: 'u1', authorKey: null };
  const byKey = { authorUserId: null, authorKey: 'k1' };

  it('lets the author and admins, and nobody else', () => {
    expect(mayEditNote(actor({ userId: 'u1' }), byUser)).toBe(true);
    expect(mayEditNote(actor({ userId: 'u2' }), byUser)).toBe(false);
    expect(mayEditNote(actor({ key: 'k1' }), byKey)).toBe(true);
    expect(mayEditNote(actor({ key: 'k2' }), byKey)).toBe(false);
    expect(mayEditNote(actor({ key: 'k2' }), byUser)).toBe(false);
    expect(mayEditNote(actor({ userId: 'u2', role: 'admin' }), byUser)).toBe(
      true,
    );
    expect(mayEditNote(actor({ key: 'k2', role: 'owner' }), byKey)).toBe(true);
    expect(
      mayEditNote(actor({ userId: 'u2', role: 'developer' }), byUser),
    ).toBe(false);
  });
});

import { SqlFile } from '../../../test/support/sql-file.js';
import type { SqlDialect } from '../../common/database/sql-statement.js';
import { InboxSql } from './inbox-sql.js';
import { mayEditNote, type InboxActor } from './inbox-actor.js';

// The inbox's statements under review on both dialects: changes confined to the form's
// listed rows (locked first on MySQL/MariaDB), reads keyed by the page's ids.
describe.each<SqlDialect>(['mysql', 'sqlite'])('inbox SQL on %s', (dialect) => {
  const sql = new InboxSql(dialect);
  const file = new SqlFile('InboxSql');

  file.section(
    'locks, sets a status and an assignee on listed rows of a form',
    () => {
      file.add('lockRows', sql.lockRows('f', ['a', 'b']));
      file.add('setStatus', sql.setStatus('f', ['a', 'b'], 'closed'));
      file.add('setAssignee', sql.setAssignee('f', ['a'], null));
    },
  );

  file.section('adds and removes labels', () => {
    file.add('addLabels', sql.addLabels(['a', 'b'], ['l1']));
    file.add('removeLabels', sql.removeLabels(['a'], ['l1']));
    file.add('removeLabels', sql.removeLabels(['a'], undefined, ['l2']));
  });

  file.section('reads what a page shows', () => {
    file.add('labelsOf', sql.labelsOf(['a']));
    file.add('noteCounts', sql.noteCounts(['a', 'b']));
    file.add('usersOf', sql.usersOf(['u']));
    file.add('membership', sql.membership('acc', 'u'));
  });

  it('builds every statement as __sql__/inbox.<dialect>.sql holds it', async () => {
    await expect(file.text()).toMatchFileSnapshot(
      `./__sql__/inbox.${dialect}.sql`,
    );
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

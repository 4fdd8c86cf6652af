// Working submissions from the dashboard's inbox over plain HTTP (DESIGN 20, 17): a row's
// and the detail page's status and assignee, the bulk bar, labels, notes — each post with
// its CSRF token, each bad value a 400 page, viewers refused with the 403 page, and what
// the pages show (tabs with counts from the counters, the forms list's new count).
import { createAccount, createMember } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { createDashboardSession } from '../../factories/sessions.js';
import { LabelsService } from '../../../src/submissions/inbox/labels.service.js';
import type { User } from '../../../src/accounts/user.entity.js';
import {
  DashboardClient,
  csrfOf,
  textOf,
} from '../../support/dashboard-client.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

interface StoredWork {
  status: string;
  assigneeId: string | null;
}

describe('dashboard: working submissions in the inbox (e2e)', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof createAccount>>;
  let editor: User;
  let viewer: User;
  let form: TestForm;
  let base: string;
  let asOwner: DashboardClient;
  let asEditor: DashboardClient;
  let asViewer: DashboardClient;

  async function clientOf(user: User): Promise<DashboardClient> {
    const { token } = await createDashboardSession(
      t,
      user.id,
      owner.account.id,
    );
    const client = new DashboardClient(t.url);
    client.cookies.set('dashboard_session', token);
    return client;
  }

  async function submit(name: string): Promise<string> {
    const sent = await request(`${t.url}/api/submit/${form.form.id}`, {
      json: { name, email: 'visitor@example.org' },
    });
    expect(sent.status).toBe(200);
    const rows: Array<{ id: string }> = await t.dataSource.query(
      'SELECT id FROM submission WHERE formId = ? ORDER BY id DESC',
      [form.form.id],
    );
    return rows[0].id;
  }

  async function stored(id: string): Promise<StoredWork> {
    const [row] = await t.dataSource.query(
      'SELECT status, assigneeId FROM submission WHERE id = ?',
      [id],
    );
    return { status: row.status, assigneeId: row.assigneeId ?? null };
  }

  beforeAll(async () => {
    t = await createTestApp({ env: { SUBMIT_RATE_LIMIT: '1000' } });
    owner = await createAccount(t);
    editor = await createMember(t, owner.account.id, 'editor');
    viewer = await createMember(t, owner.account.id, 'viewer');
    form = await createForm(t, owner.account.id, { name: 'Leads' });
    base = `/dashboard/forms/${form.form.id}`;
    asOwner = await clientOf(owner.user);
    asEditor = await clientOf(editor);
    asViewer = await clientOf(viewer);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows a new submission in New with its count, and on the forms list', async () => {
    const before = await asEditor.get(`${base}?status=new`);
    const counted = Number(
      /data-testid="count-new">(\d+)</.exec(before.html)?.[1] ?? 'NaN',
    );
    const id = await submit('Ada New');
    const page = await asEditor.get(`${base}?status=new`);
    expect(page.status).toBe(200);
    expect(page.html).toContain(`data-testid="count-new">${counted + 1}<`);
    expect(page.html).toMatch(/data-status-tab="new" aria-current="page"/);
    expect(page.html).toContain(`data-submission="${id}"`);
    expect(textOf(page.html)).toContain('Ada New');
    const list = await asEditor.get('/dashboard/forms');
    expect(list.html).toContain(`${counted + 1} new</a>`);
  });

  it('opens the form’s page on New with its count when no tab is chosen, and every link names its tab', async () => {
    const fresh = await submit('Still New');
    const seen = await submit('Seen Already');
    await asEditor.get(`${base}/submissions/${seen}`);
    expect((await stored(seen)).status).toBe('open');
    const [{ n }] = await t.dataSource.query(
      "SELECT COUNT(*) AS n FROM submission WHERE formId = ? AND status = 'new'",
      [form.form.id],
    );

    // The forms list links the form's page itself: it opens on New.
    const list = await asEditor.get('/dashboard/forms');
    expect(list.html).toContain(`href="${base}"`);
    const page = await asEditor.get(base);
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/data-status-tab="new" aria-current="page"/);
    expect(page.html).toContain(`data-testid="count-new">${Number(n)}<`);
    expect(page.html).toContain(`data-submission="${fresh}"`);
    expect(page.html).not.toContain(`data-submission="${seen}"`);
    // The tab says its count: no line above the list repeats it.
    expect(page.html).not.toContain('data-testid="results-count"');
    // All is a tab of its own, with every status.
    expect(page.html).toContain(
      `href="${base}?status=all#submissions-title" data-status-tab="all"`,
    );
    const all = await asEditor.get(`${base}?status=all`);
    expect(all.html).toMatch(/data-status-tab="all" aria-current="page"/);
    expect(all.html).toContain(`data-submission="${fresh}"`);
    expect(all.html).toContain(`data-submission="${seen}"`);
    // A search keeps the tab it was typed on, and offers every status.
    expect(page.html).toContain(
      '<input type="hidden" name="status" value="new">',
    );
    const searched = await asEditor.get(`${base}?status=new&q=Seen`);
    expect(searched.html).not.toContain(`data-submission="${seen}"`);
    expect(searched.html).toContain(
      `href="${base}?status=all&amp;q=Seen#submissions-title">Search every status</a>`,
    );
    // The assignment mail's link to "mine" shows every status.
    const mailed = await asEditor.get(`${base}?tab=mine`);
    expect(mailed.html).toMatch(/data-status-tab="all" aria-current="page"/);
    // A CSV without a tab holds every status; the page's link names its tab.
    const csv = await asEditor.get(`${base}/submissions.csv`);
    expect(csv.status).toBe(200);
    expect(csv.html).toContain('Still New');
    expect(csv.html).toContain('Seen Already');
    expect(page.html).toContain(`href="${base}/submissions.csv?status=new"`);
  });

  it('takes a submission’s page back to the tab it was opened from, after a change and after deleting it', async () => {
    const id = await submit('Round Trip');
    await asEditor.post(
      `${base}/submissions/${id}/work`,
      { status: 'closed', back: '' },
      { from: base },
    );
    const closed = await asEditor.get(`${base}?status=closed`);
    const back = encodeURIComponent('?status=closed');
    const link = `${base}/submissions/${id}?back=${back}`;
    expect(closed.html).toContain(`href="${link}"`);
    const detail = await asEditor.get(link);
    expect(detail.html).toContain(
      `href="${base}?status=closed#submissions-title" data-testid="back-to-submissions"`,
    );
    expect(detail.html).toContain(
      `href="${base}/submissions/${id}/delete?back=${back}"`,
    );
    const saved = await asEditor.post(
      `${base}/submissions/${id}/work`,
      [
        ['from', 'detail'],
        ['back', '?status=closed'],
        ['status', 'closed'],
        ['assigneeId', ''],
      ],
      { from: link },
    );
    expect(saved.location).toBe(
      `${base}/submissions/${id}?done=saved&back=${back}#work`,
    );
    const noted = await asEditor.post(
      `${base}/submissions/${id}/notes`,
      { text: 'Done', back: '?status=closed' },
      { from: link },
    );
    expect(noted.location).toBe(
      `${base}/submissions/${id}?done=note-added&back=${back}#notes`,
    );
    // Somewhere else than an inbox query is never a way back.
    const elsewhere = await asEditor.get(
      `${base}/submissions/${id}?back=${encodeURIComponent('//evil.example/')}`,
    );
    expect(elsewhere.html).toContain(
      `href="${base}#submissions-title" data-testid="back-to-submissions"`,
    );
    const confirm = await asEditor.get(
      `${base}/submissions/${id}/delete?back=${back}`,
    );
    expect(confirm.html).toContain(
      '<input type="hidden" name="back" value="?status=closed">',
    );
    const deleted = await asEditor.post(
      `${base}/submissions/${id}/delete`,
      { back: '?status=closed' },
      { csrf: csrfOf(confirm.html) },
    );
    expect(deleted.status).toBe(303);
    expect(deleted.location).toBe(
      `${base}?status=closed&done=submission-deleted`,
    );
    const after = await asEditor.get(deleted.location!);
    expect(textOf(after.html)).toContain('The submission was deleted.');
    expect(after.html).toMatch(/data-status-tab="closed" aria-current="page"/);
  });

  it('makes a new submission open when a member who works submissions opens it; a viewer’s reading changes nothing', async () => {
    const id = await submit('Opened Once');
    const read = await asViewer.get(`${base}/submissions/${id}`);
    expect(read.status).toBe(200);
    expect((await stored(id)).status).toBe('new');
    // A viewer sees no work controls.
    expect(read.html).not.toContain('/work"');
    expect(read.html).not.toContain('/notes"');

    const opened = await asEditor.get(`${base}/submissions/${id}`);
    expect(opened.status).toBe(200);
    expect((await stored(id)).status).toBe('open');
    expect(opened.html).toMatch(/data-testid="status">Open</);
  });

  it('sets a row’s status and assignee, returning to the same tab', async () => {
    const id = await submit('Row Work');
    const from = `${base}?status=new`;
    const saved = await asEditor.post(
      `${base}/submissions/${id}/work`,
      { status: 'closed', assigneeId: editor.id, back: '?status=new' },
      { from },
    );
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(
      `${base}?status=new&done=saved#submissions-title`,
    );
    expect(await stored(id)).toEqual({
      status: 'closed',
      assigneeId: editor.id,
    });
    const closed = await asEditor.get(`${base}?status=closed`);
    expect(closed.html).toContain(`data-submission="${id}"`);
    expect(textOf(closed.html)).toContain(editor.email);
    // "Assigned to me" keeps the tab: on New a closed one is not listed, on All it is.
    const mineNew = await asEditor.get(`${base}?status=new&mine=1`);
    expect(mineNew.html).not.toContain(`data-submission="${id}"`);
    const mine = await asEditor.get(`${base}?status=all&mine=1`);
    expect(mine.html).toContain(`data-submission="${id}"`);
    expect(textOf(mine.html)).toContain('assigned to you');
    const theirs = await asOwner.get(`${base}?status=all&mine=1`);
    expect(theirs.html).not.toContain(`data-submission="${id}"`);
  });

  it('closes many at once, and deletes the selected after a confirmation', async () => {
    const ids = [await submit('Bulk One'), await submit('Bulk Two')];
    const from = base;
    const closed = await asEditor.post(
      `${base}/submissions/bulk`,
      [
        ['ids', ids[0]],
        ['ids', ids[1]],
        ['status', 'closed'],
        ['assigneeId', ''],
        ['action', 'apply'],
        ['back', ''],
      ],
      { from },
    );
    expect(closed.status).toBe(303);
    expect(closed.location).toBe(
      `${base}?done=bulk-updated&updated=2#submissions-title`,
    );
    for (const id of ids) expect((await stored(id)).status).toBe('closed');
    const notice = await asEditor.get(closed.location!.replace(/#.*/, ''));
    expect(textOf(notice.html)).toContain('Updated 2 submissions.');

    // An editor may delete (DESIGN 17): first the confirmation, then the deletion.
    const confirm = await asEditor.post(
      `${base}/submissions/bulk`,
      [
        ['ids', ids[0]],
        ['action', 'delete'],
      ],
      { from },
    );
    expect(confirm.status).toBe(200);
    expect(textOf(confirm.html)).toContain(
      'This permanently deletes the 1 selected submission',
    );
    expect((await stored(ids[0])).status).toBe('closed');
    const deleted = await asEditor.post(
      `${base}/submissions/bulk-delete`,
      [['ids', ids[0]]],
      { csrf: csrfOf(confirm.html) },
    );
    expect(deleted.status).toBe(303);
    expect(deleted.location).toBe(
      `${base}?done=bulk-deleted&deleted=1#submissions-title`,
    );
    const left = await t.dataSource.query(
      'SELECT id FROM submission WHERE id IN (?, ?)',
      ids,
    );
    expect(left.map((r: { id: string }) => r.id)).toEqual([ids[1]]);
  });

  it('puts labels from the detail page and filters the list by a label chip', async () => {
    const labels = t.app.get(LabelsService);
    await labels.create(owner.account.id, { name: 'Hot lead', color: 'red' });
    const tagged = await submit('Tagged');
    const plain = await submit('Untagged');
    const detail = `${base}/submissions/${tagged}`;
    const saved = await asEditor.post(
      `${detail}/work`,
      [
        ['from', 'detail'],
        ['labelsShown', '1'],
        ['status', 'open'],
        ['assigneeId', ''],
        ['labels', 'Hot lead'],
      ],
      { from: detail },
    );
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`${detail}?done=saved#work`);
    // The chip keeps the tab: the tagged one is open, so it is on Open and All, not New.
    const onNew = await asEditor.get(`${base}?status=new&label=Hot%20lead`);
    expect(onNew.html).not.toContain(`data-submission="${tagged}"`);
    const page = await asEditor.get(`${base}?status=all&label=Hot%20lead`);
    expect(page.status).toBe(200);
    expect(page.html).toContain(`data-submission="${tagged}"`);
    expect(page.html).not.toContain(`data-submission="${plain}"`);
    expect(page.html).toMatch(
      /class="chip label-red chip-on" href="[^"]*" data-label-chip="Hot lead" aria-current="true"/,
    );
    expect(textOf(page.html)).toContain('labelled “Hot lead”');
  });

  it('keeps a notes thread: add, edit one’s own, an admin edits anyone’s, others are refused', async () => {
    const id = await submit('Noted');
    const detail = `${base}/submissions/${id}`;
    const added = await asEditor.post(
      `${detail}/notes`,
      { text: 'Called back, <b>no answer</b>' },
      { from: detail },
    );
    expect(added.status).toBe(303);
    expect(added.location).toBe(`${detail}?done=note-added#notes`);
    const [note] = await t.dataSource.query(
      'SELECT id, text, authorUserId FROM submission_note WHERE submissionId = ?',
      [id],
    );
    expect(note.authorUserId).toBe(editor.id);
    const page = await asEditor.get(detail);
    expect(page.html).toContain('Called back, &lt;b&gt;no answer&lt;/b&gt;');
    expect(page.html).toContain(`/notes/${note.id}"`);

    // Another editor's note: no edit controls, and the post is refused.
    const other = await clientOf(
      await createMember(t, owner.account.id, 'editor'),
    );
    const seen = await other.get(detail);
    expect(seen.html).not.toContain(`/notes/${note.id}"`);
    const refused = await other.post(
      `${detail}/notes/${note.id}`,
      { text: 'Not mine' },
      { from: detail },
    );
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toMatch(/text\/html/);

    const edited = await asOwner.post(
      `${detail}/notes/${note.id}`,
      { text: 'Called back twice' },
      { from: detail },
    );
    expect(edited.status).toBe(303);
    const [after] = await t.dataSource.query(
      'SELECT text FROM submission_note WHERE id = ?',
      [note.id],
    );
    expect(after.text).toBe('Called back twice');

    const removed = await asEditor.post(
      `${detail}/notes/${note.id}/delete`,
      {},
      { from: detail },
    );
    expect(removed.status).toBe(303);
    expect(
      await t.dataSource.query('SELECT id FROM submission_note WHERE id = ?', [
        note.id,
      ]),
    ).toEqual([]);
  });
});

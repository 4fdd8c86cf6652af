// What the inbox's dashboard posts refuse (DESIGN 17, 20): a viewer (the 403 page), a post
// without its CSRF token, another account's form (404), and every bad value — a 400 page
// that says what is wrong, the submission left as it was.
import { createAccount, createMember } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { createDashboardSession } from '../../factories/sessions.js';
import type { User } from '../../../src/accounts/user.entity.js';
import { DashboardClient, textOf } from '../../support/dashboard-client.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

describe('dashboard: what the inbox refuses (e2e)', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof createAccount>>;
  let form: TestForm;
  let base: string;
  let id: string;
  let asEditor: DashboardClient;
  let asViewer: DashboardClient;

  async function clientOf(
    user: User,
    accountId = owner.account.id,
  ): Promise<DashboardClient> {
    const { token } = await createDashboardSession(t, user.id, accountId);
    const client = new DashboardClient(t.url);
    client.cookies.set('dashboard_session', token);
    return client;
  }

  async function stored(): Promise<{ status: string; assigneeId: unknown }> {
    const [row] = await t.dataSource.query(
      'SELECT status, assigneeId FROM submission WHERE id = ?',
      [id],
    );
    return { status: row.status, assigneeId: row.assigneeId ?? null };
  }

  async function notes(): Promise<number> {
    const rows = await t.dataSource.query(
      'SELECT id FROM submission_note WHERE submissionId = ?',
      [id],
    );
    return rows.length;
  }

  /** A 4xx answered as an HTML page that says `message`. */
  function expectPage(
    page: { status: number; html: string; headers: Headers },
    status: number,
    message?: string,
  ) {
    expect(page.status).toBe(status);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    if (message) expect(textOf(page.html)).toContain(message);
  }

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createAccount(t);
    form = await createForm(t, owner.account.id, { name: 'Requests' });
    base = `/dashboard/forms/${form.form.id}`;
    const sent = await request(`${t.url}/api/submit/${form.form.id}`, {
      json: { name: 'Grace', email: 'grace@example.org' },
    });
    expect(sent.status).toBe(200);
    [{ id }] = await t.dataSource.query(
      'SELECT id FROM submission WHERE formId = ?',
      [form.form.id],
    );
    asEditor = await clientOf(
      await createMember(t, owner.account.id, 'editor'),
    );
    asViewer = await clientOf(
      await createMember(t, owner.account.id, 'viewer'),
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows a viewer no work controls and refuses their posts with the 403 page', async () => {
    const page = await asViewer.get(base);
    expect(page.status).toBe(200);
    expect(page.html).toContain(`data-submission="${id}"`);
    expect(page.html).not.toContain('id="bulk"');
    expect(page.html).not.toContain('/work"');
    expect(page.html).not.toContain('Delete all submissions');
    const posts: Array<[string, Array<[string, string]>]> = [
      [`${base}/submissions/${id}/work`, [['status', 'closed']]],
      [
        `${base}/submissions/bulk`,
        [
          ['ids', id],
          ['status', 'closed'],
        ],
      ],
      [`${base}/submissions/bulk-delete`, [['ids', id]]],
      [`${base}/submissions/${id}/notes`, [['text', 'Hello']]],
    ];
    for (const [path, fields] of posts) {
      const refused = await asViewer.post(path, fields, { from: base });
      expectPage(refused, 403);
    }
    expect(await stored()).toEqual({ status: 'new', assigneeId: null });
    expect(await notes()).toBe(0);
  });

  it('refuses a post without the CSRF token', async () => {
    for (const path of [
      `${base}/submissions/${id}/work`,
      `${base}/submissions/bulk`,
      `${base}/submissions/${id}/notes`,
    ]) {
      const forged = await asEditor.post(
        path,
        [
          ['ids', id],
          ['status', 'closed'],
          ['text', 'Forged'],
        ],
        { csrf: null },
      );
      expect(forged.status, path).toBe(403);
    }
    expect(await stored()).toEqual({ status: 'new', assigneeId: null });
    expect(await notes()).toBe(0);
  });

  it('answers another account’s form with the 404 page', async () => {
    const stranger = await createAccount(t);
    const elsewhere = await clientOf(stranger.user, stranger.account.id);
    const page = await elsewhere.post(
      `${base}/submissions/${id}/work`,
      { status: 'closed' },
      { from: '/dashboard/forms' },
    );
    expectPage(page, 404);
    expect(await stored()).toEqual({ status: 'new', assigneeId: null });
  });

  it('answers each bad value with a 400 page that says what is wrong', async () => {
    const stranger = await createAccount(t);
    const work = `${base}/submissions/${id}/work`;
    const bulk = `${base}/submissions/bulk`;
    const cases: Array<[string, Array<[string, string]>, string]> = [
      [work, [['status', 'done']], 'Choose New, Open or Closed as the status'],
      [
        work,
        [['assigneeId', stranger.user.id]],
        'Choose the assignee among this account’s members',
      ],
      [work, [], 'Choose a status or an assignee to save'],
      [
        work,
        [
          ['labelsShown', '1'],
          ['labels', 'No such label'],
        ],
        'There is no label named “No such label”',
      ],
      [bulk, [['status', 'closed']], 'Select at least one submission first'],
      [
        bulk,
        [
          ...Array.from({ length: 501 }, (_, i): [string, string] => [
            'ids',
            `${id.slice(0, 20)}${i}`,
          ]),
          ['status', 'closed'],
        ],
        'Select at most 500 submissions at a time',
      ],
      [
        bulk,
        [
          ['ids', id],
          ['status', ''],
          ['assigneeId', ''],
        ],
        'Choose a status, an assignee or a label',
      ],
    ];
    for (const [path, fields, message] of cases) {
      const page = await asEditor.post(path, fields, { from: base });
      expectPage(page, 400, message);
    }
    expect(await stored()).toEqual({ status: 'new', assigneeId: null });
  });

  it('keeps what was typed when a note is empty or over 5,000 characters', async () => {
    const detail = `${base}/submissions/${id}`;
    const empty = await asEditor.post(
      `${detail}/notes`,
      { text: '   ' },
      { from: detail },
    );
    expectPage(empty, 400, 'Write something before adding the note');
    const long = 'x'.repeat(5001);
    const tooLong = await asEditor.post(
      `${detail}/notes`,
      { text: long },
      { from: detail },
    );
    expectPage(tooLong, 400, 'A note has at most 5,000 characters');
    expect(tooLong.html).toContain(`>${long}</textarea>`);
    expect(tooLong.html).toContain('aria-invalid="true"');
    expect(await notes()).toBe(0);
    const fits = await asEditor.post(
      `${detail}/notes`,
      { text: 'y'.repeat(5000) },
      { from: detail },
    );
    expect(fits.status).toBe(303);
    expect(await notes()).toBe(1);
  });
});

// The team inbox over the API (DESIGN 20): a submission's status, assignee and labels, one
// at a time and in bulk, the list's filters, notes and the account's labels, with their
// validations and who may do what.
import { User } from '../../../src/accounts/user.entity.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import {
  createAccount,
  createAccountApiKey,
  createMember,
  type TestAccount,
} from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

describe('the team inbox API (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let form: TestForm;
  let editorKey: string;
  let otherEditorKey: string;
  let viewerKey: string;
  let member: User;

  beforeAll(async () => {
    t = await createTestApp({ env: { SUBMIT_RATE_LIMIT: '1000' } });
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    owner = await createAccount(t);
    form = await createForm(t, owner.account.id);
    editorKey = await createAccountApiKey(t, owner.account.id, 'ed', 'editor');
    otherEditorKey = await createAccountApiKey(
      t,
      owner.account.id,
      'ed2',
      'editor',
    );
    viewerKey = await createAccountApiKey(t, owner.account.id, 'v', 'viewer');
    member = await createMember(t, owner.account.id, 'editor');
  });

  const api = (path: string) => `${t.url}/api/v1${path}`;
  const subs = (path = '') => api(`/forms/${form.form.id}/submissions${path}`);
  const call = (method: string, url: string, key: string, json?: unknown) =>
    request(url, { method, apiKey: key, json });

  async function submit(n: number, text = 'hello'): Promise<string[]> {
    for (let i = 0; i < n; i++) {
      const res = await request(`${t.url}/api/submit/${form.form.id}`, {
        json: {
          name: `Person ${i}`,
          email: `p${i}@example.com`,
          message: `${text} ${i}`,
        },
      });
      expect(res.status).toBe(200);
    }
    const rows = await t.dataSource
      .getRepository(Submission)
      .find({ where: { formId: form.form.id }, order: { id: 'ASC' } });
    expect(rows.length).toBeGreaterThanOrEqual(n);
    return rows.map((row) => row.id);
  }

  async function label(name: string, color = 'green'): Promise<string> {
    const res = await call('POST', api('/account/labels'), owner.apiKey, {
      name,
      color,
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  it('shows a new submission as new, unassigned, unlabelled, without notes', async () => {
    const [id] = await submit(1);
    const res = await call('GET', subs(`/${id}`), viewerKey);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id,
      status: 'new',
      assignee: null,
      labels: [],
      noteCount: 0,
    });
    // An API read changes nothing.
    const row = await t.dataSource
      .getRepository(Submission)
      .findOneByOrFail({ id });
    expect(row.status).toBe('new');
  });

  it('sets status, assignee and labels with PATCH, and the list filters by them', async () => {
    const [a, b] = await submit(2);
    await label('lead');
    await label('later', 'red');
    const res = await call('PATCH', subs(`/${a}`), editorKey, {
      status: 'closed',
      assigneeId: member.id,
      labels: ['lead', 'later'],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: a,
      status: 'closed',
      assignee: { userId: member.id, email: member.email },
      labels: ['later', 'lead'],
    });
    const stored = await t.dataSource
      .getRepository(Submission)
      .findOneByOrFail({ id: a });
    expect(stored.status).toBe('closed');
    expect(stored.assigneeId).toBe(member.id);

    const ids = async (query: string) => {
      const list = await call('GET', subs(`?${query}`), viewerKey);
      expect(list.status).toBe(200);
      return (list.body.data as Array<{ id: string }>).map((s) => s.id);
    };
    expect(await ids('status=closed')).toEqual([a]);
    expect(await ids('status=new')).toEqual([b]);
    expect(await ids(`assignee=${member.id}`)).toEqual([a]);
    expect(await ids('assignee=none')).toEqual([b]);
    expect(await ids('label=lead')).toEqual([a]);
    expect(await ids('label=unknown')).toEqual([]);

    // labels: [] takes them all off; assigneeId null unassigns.
    const cleared = await call('PATCH', subs(`/${a}`), editorKey, {
      labels: [],
      assigneeId: null,
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({
      labels: [],
      assignee: null,
      status: 'closed',
    });
  });

  it('refuses an assignee from another account, an unknown label and a bad status (400), changing nothing', async () => {
    const [id] = await submit(1);
    const stranger = await createAccount(t);
    const cases: Array<[unknown, RegExp]> = [
      [{ assigneeId: stranger.user.id }, /member/],
      [{ labels: ['nope'] }, /Unknown label/],
      [{ status: 'done' }, /status must be one of/],
      [{}, /at least one/],
    ];
    for (const [body, message] of cases) {
      const res = await call('PATCH', subs(`/${id}`), editorKey, body);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(message);
    }
    const row = await t.dataSource
      .getRepository(Submission)
      .findOneByOrFail({ id });
    expect(row).toMatchObject({ status: 'new', assigneeId: null });
  });

  it('refuses a viewer every change (403) and lets it read', async () => {
    const [id] = await submit(1);
    const labelId = await label('lead');
    const refused = [
      call('PATCH', subs(`/${id}`), viewerKey, { status: 'open' }),
      call('POST', subs('/bulk'), viewerKey, {
        ids: [id],
        set: { status: 'open' },
      }),
      call('POST', subs(`/${id}/notes`), viewerKey, { text: 'hi' }),
      call('POST', api('/account/labels'), viewerKey, { name: 'x' }),
      call('PATCH', api(`/account/labels/${labelId}`), viewerKey, {
        name: 'y',
      }),
      call('DELETE', api(`/account/labels/${labelId}`), viewerKey),
    ];
    for (const res of await Promise.all(refused)) {
      expect(res.status).toBe(403);
      expect(res.body.error).toMatch(/read-only|cannot/);
    }
    expect((await call('GET', api('/account/labels'), viewerKey)).status).toBe(
      200,
    );
    expect((await call('GET', subs(`/${id}/notes`), viewerKey)).status).toBe(
      200,
    );
    const row = await t.dataSource
      .getRepository(Submission)
      .findOneByOrFail({ id });
    expect(row.status).toBe('new');
  });

  it('bulk-changes listed ids in one request, and refuses 501 ids', async () => {
    const ids = await submit(3);
    await label('lead');
    const res = await call('POST', subs('/bulk'), editorKey, {
      ids: [...ids.slice(0, 2), 'NOSUCHSUBMISSION'],
      set: { status: 'closed', addLabels: ['lead'] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ updated: 2 });
    const list = await call(
      'GET',
      subs('?status=closed&label=lead'),
      viewerKey,
    );
    expect(
      (list.body.data as Array<{ id: string }>).map((s) => s.id).sort(),
    ).toEqual(ids.slice(0, 2).sort());
    const removed = await call('POST', subs('/bulk'), editorKey, {
      ids: [ids[0]],
      set: { removeLabels: ['lead'] },
    });
    expect(removed.body).toEqual({ updated: 1 });
    const one = await call('GET', subs(`/${ids[0]}`), viewerKey);
    expect(one.body.labels).toEqual([]);

    const tooMany = await call('POST', subs('/bulk'), editorKey, {
      ids: Array.from({ length: 501 }, (_, i) => `id${i}`),
      set: { status: 'open' },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors).toContain(
      'ids must list at most 500 submissions',
    );
    const neither = await call('POST', subs('/bulk'), editorKey, {
      set: { status: 'open' },
    });
    expect(neither.status).toBe(400);
  });

  it('bulk-changes every match of a filter', async () => {
    const ids = await submit(4, 'plain');
    await call('PATCH', subs(`/${ids[0]}`), editorKey, { status: 'closed' });
    const res = await call('POST', subs('/bulk'), editorKey, {
      filter: { status: 'new' },
      set: { status: 'open', assigneeId: member.id },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ updated: 3 });
    const rows = await t.dataSource
      .getRepository(Submission)
      .find({ where: { formId: form.form.id }, order: { id: 'ASC' } });
    expect(rows.map((r) => r.status)).toEqual([
      'closed',
      'open',
      'open',
      'open',
    ]);
    expect(rows.map((r) => r.assigneeId)).toEqual([
      null,
      member.id,
      member.id,
      member.id,
    ]);
  });

  it('keeps notes: the author or an admin may change them, others get 403; 5,001 characters → 400', async () => {
    const [id] = await submit(1);
    const created = await call('POST', subs(`/${id}/notes`), editorKey, {
      text: 'Called back',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      text: 'Called back',
      author: { userId: null, email: null },
    });
    const noteId = created.body.id as string;
    const note = (path = '') => subs(`/${id}/notes/${noteId}${path}`);

    const long = await call('POST', subs(`/${id}/notes`), editorKey, {
      text: 'x'.repeat(5001),
    });
    expect(long.status).toBe(400);
    expect(long.body.errors).toContain('text must be at most 5000 characters');
    expect(
      (
        await call('POST', subs(`/${id}/notes`), editorKey, {
          text: 'x'.repeat(5000),
        })
      ).status,
    ).toBe(201);

    const other = await call('PATCH', note(), otherEditorKey, {
      text: 'Mine now',
    });
    expect(other.status).toBe(403);
    expect((await call('DELETE', note(), otherEditorKey)).status).toBe(403);

    const own = await call('PATCH', note(), editorKey, {
      text: 'Called back twice',
    });
    expect(own.status).toBe(200);
    expect(own.body.text).toBe('Called back twice');
    const byAdmin = await call('PATCH', note(), owner.apiKey, {
      text: 'Edited by admin',
    });
    expect(byAdmin.status).toBe(200);

    const list = await call('GET', subs(`/${id}/notes`), viewerKey);
    expect(list.status).toBe(200);
    expect(
      (list.body.data as Array<{ text: string }>).map((n) => n.text),
    ).toEqual(['Edited by admin', 'x'.repeat(5000)]);
    expect((await call('GET', subs(`/${id}`), viewerKey)).body.noteCount).toBe(
      2,
    );

    expect((await call('DELETE', note(), owner.apiKey)).status).toBe(204);
    expect((await call('DELETE', note(), owner.apiKey)).status).toBe(404);
    expect(
      (await call('GET', subs('/NOSUCHSUBMISSION/notes'), viewerKey)).status,
    ).toBe(404);
  });

  it('keeps the account labels: unique names (409), the palette (400), rename and delete', async () => {
    const created = await call('POST', api('/account/labels'), editorKey, {
      name: 'lead',
      color: 'teal',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'lead', color: 'teal' });
    const id = created.body.id as string;
    const dup = await call('POST', api('/account/labels'), editorKey, {
      name: 'lead',
    });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({
      error: 'A label with this name already exists',
    });
    const badColor = await call('POST', api('/account/labels'), editorKey, {
      name: 'x',
      color: 'black',
    });
    expect(badColor.status).toBe(400);
    const longName = await call('POST', api('/account/labels'), editorKey, {
      name: 'x'.repeat(41),
    });
    expect(longName.status).toBe(400);

    const renamed = await call(
      'PATCH',
      api(`/account/labels/${id}`),
      editorKey,
      {
        name: 'hot lead',
        color: 'red',
      },
    );
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id, name: 'hot lead', color: 'red' });
    const list = await call('GET', api('/account/labels'), viewerKey);
    expect(list.body.data).toEqual([renamed.body]);

    // Another account's label answers 404.
    const stranger = await createAccount(t);
    expect(
      (
        await call('PATCH', api(`/account/labels/${id}`), stranger.apiKey, {
          name: 'z',
        })
      ).status,
    ).toBe(404);
    expect(
      (await call('DELETE', api(`/account/labels/${id}`), editorKey)).status,
    ).toBe(204);
    expect(
      (await call('GET', api('/account/labels'), viewerKey)).body.data,
    ).toEqual([]);
  });

  it('exports status, assignee and labels as columns (CSV) and properties (NDJSON)', async () => {
    const [a, b] = await submit(2);
    await label('lead');
    await label('vip');
    expect(
      (
        await call('PATCH', subs(`/${a}`), editorKey, {
          status: 'open',
          assigneeId: member.id,
          labels: ['vip', 'lead'],
        })
      ).status,
    ).toBe(200);
    const csv = await fetch(subs('/export?format=csv'), {
      headers: { 'x-api-key': viewerKey },
    });
    expect(csv.status).toBe(200);
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe(
      'id,createdAt,name,email,message,status,assignee,labels',
    );
    const byId = new Map(
      lines.slice(1).map((line) => [line.slice(0, 26), line]),
    );
    expect(byId.get(a)).toMatch(
      new RegExp(`,open,${member.email.replace('.', '\\.')},lead; vip$`),
    );
    expect(byId.get(b)).toMatch(/,new,,$/);

    const nd = await fetch(subs('/export?format=ndjson&label=lead'), {
      headers: { 'x-api-key': viewerKey },
    });
    const objects = (await nd.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(objects).toHaveLength(1);
    expect(objects[0]).toMatchObject({
      id: a,
      status: 'open',
      assignee: { userId: member.id, email: member.email },
      labels: ['lead', 'vip'],
      noteCount: 0,
    });
    // The same shape as the single-submission endpoint.
    const one = await call('GET', subs(`/${a}`), viewerKey);
    expect(objects[0]).toEqual(one.body);
  });
});

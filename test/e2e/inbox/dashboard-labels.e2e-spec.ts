// The account's labels in the dashboard (DESIGN 20, 17, 19): the Labels page makes, renames,
// recolours and deletes them through the API's own service — the same checks shown as page
// errors (a name the account has: 409; a colour off the palette or a name too long: 400),
// the same audit events — for editors and above; viewers read the list and are refused
// every change with the 403 page; a post without its CSRF token is refused.
import type { User } from '../../../src/accounts/user.entity.js';
import {
  createAccount,
  createMember,
  type TestAccount,
} from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import { createDashboardSession } from '../../factories/sessions.js';
import { DashboardClient, textOf } from '../../support/dashboard-client.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { storedEvents } from '../audit/audit-support.js';

const LABELS = '/dashboard/account/labels';

interface StoredLabel {
  id: string;
  name: string;
  color: string;
}

describe('dashboard: the Labels page (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let editor: User;
  let asEditor: DashboardClient;
  let asViewer: DashboardClient;

  async function clientOf(user: User, accountId = owner.account.id) {
    const { token } = await createDashboardSession(t, user.id, accountId);
    const client = new DashboardClient(t.url);
    client.cookies.set('dashboard_session', token);
    return client;
  }

  async function labels(accountId = owner.account.id): Promise<StoredLabel[]> {
    return t.dataSource.query(
      'SELECT id, name, color FROM label WHERE accountId = ? ORDER BY name',
      [accountId],
    );
  }

  async function labelEvents() {
    return (await storedEvents(t, owner.account.id)).filter((event) =>
      event.action.startsWith('label.'),
    );
  }

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
    t = await createTestApp({ env: { SUBMIT_RATE_LIMIT: '1000' } });
    owner = await createAccount(t);
    editor = await createMember(t, owner.account.id, 'editor');
    asEditor = await clientOf(editor);
    asViewer = await clientOf(
      await createMember(t, owner.account.id, 'viewer'),
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it('makes a label with its colour, as one audit event by the member', async () => {
    const empty = await asEditor.get(LABELS);
    expectPage(empty, 200, 'No labels yet.');
    expect(empty.html).toContain('Create label');
    const made = await asEditor.post(
      LABELS,
      { name: '  Hot lead ', color: 'red' },
      { from: LABELS },
    );
    expect(made.status).toBe(303);
    expect(made.location).toBe(`${LABELS}?done=created#labels-title`);
    const [stored] = await labels();
    expect(stored).toMatchObject({ name: 'Hot lead', color: 'red' });
    const page = await asEditor.get(made.location!.replace(/#.*/, ''));
    expect(textOf(page.html)).toContain('Label created.');
    expect(page.html).toContain(
      'class="chip label-red" data-testid="label-chip" data-color="red">Hot lead</span>',
    );
    const events = await labelEvents();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'label.created',
      actorType: 'member',
      actorId: editor.id,
      actorLabel: editor.email,
      targetType: 'label',
      targetId: stored.id,
      details: { name: 'Hot lead', color: 'red' },
    });
  });

  it('refuses a name the account has with a 409 page, and a bad colour or name with a 400 page', async () => {
    const before = await labels();
    const events = (await labelEvents()).length;
    const duplicate = await asEditor.post(
      LABELS,
      { name: 'Hot lead', color: 'blue' },
      { from: LABELS },
    );
    expectPage(duplicate, 409, 'A label with this name already exists');
    // What was typed stays, and the message sits beside the name.
    expect(duplicate.html).toMatch(
      /<input id="name" name="name" type="text" value="Hot lead"[^>]*aria-invalid="true"/,
    );
    expect(duplicate.html).toMatch(
      /<option value="blue" selected>Blue<\/option>/,
    );

    const badColor = await asEditor.post(
      LABELS,
      { name: 'Later', color: 'magenta' },
      { from: LABELS },
    );
    expectPage(
      badColor,
      400,
      'Color must be one of gray, red, orange, yellow, green, teal, blue, indigo, purple, pink',
    );
    expect(badColor.html).toContain('id="color-error"');

    const both = await asEditor.post(
      LABELS,
      { name: 'x'.repeat(41), color: '' },
      { from: LABELS },
    );
    expectPage(both, 400, 'Name must be 1 to 40 characters');
    expect(textOf(both.html)).toContain('There are 2 problems');
    expectPage(
      await asEditor.post(
        LABELS,
        { name: '   ', color: 'red' },
        { from: LABELS },
      ),
      400,
      'Name must be 1 to 40 characters',
    );
    expect(await labels()).toEqual(before);
    expect(await labelEvents()).toHaveLength(events);
  });

  it('renames and recolours a label (one event with before and after), and refuses a taken name on its row', async () => {
    const made = await asEditor.post(
      LABELS,
      { name: 'Later', color: 'gray' },
      { from: LABELS },
    );
    expect(made.status).toBe(303);
    const later = (await labels()).find((label) => label.name === 'Later')!;
    const row = `${LABELS}/${later.id}`;
    const events = (await labelEvents()).length;

    const saved = await asEditor.post(
      row,
      { name: 'Call back', color: 'teal' },
      { from: LABELS },
    );
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`${LABELS}?done=saved#label-${later.id}`);
    expect((await labels()).find((l) => l.id === later.id)).toMatchObject({
      name: 'Call back',
      color: 'teal',
    });
    const [changed] = (await labelEvents()).slice(events);
    expect(changed).toMatchObject({
      action: 'label.updated',
      actorId: editor.id,
      targetId: later.id,
      details: {
        name: { before: 'Later', after: 'Call back' },
        color: { before: 'gray', after: 'teal' },
      },
    });
    // Saving it unchanged changes nothing and records nothing.
    const again = await asEditor.post(
      row,
      { name: 'Call back', color: 'teal' },
      { from: LABELS },
    );
    expect(again.status).toBe(303);
    expect(await labelEvents()).toHaveLength(events + 1);

    const taken = await asEditor.post(
      row,
      { name: 'Hot lead', color: 'teal' },
      { from: LABELS },
    );
    expectPage(taken, 409, 'A label with this name already exists');
    expect(taken.html).toMatch(
      new RegExp(
        `<input id="label-${later.id}-name" name="name" type="text" value="Hot lead"[^>]*aria-invalid="true"`,
      ),
    );
    const offPalette = await asEditor.post(
      row,
      { name: 'Call back', color: 'black' },
      { from: LABELS },
    );
    expectPage(offPalette, 400, 'Color must be one of');
    expect(offPalette.html).toContain(`id="label-${later.id}-color-error"`);
    expect((await labels()).find((l) => l.id === later.id)).toMatchObject({
      name: 'Call back',
      color: 'teal',
    });
    expect(await labelEvents()).toHaveLength(events + 1);
  });

  it('deletes a label after a confirmation, taking it off its submissions, as one event', async () => {
    const form = await createForm(t, owner.account.id);
    const sent = await request(`${t.url}/api/submit/${form.form.id}`, {
      json: { name: 'Tagged', email: 'tagged@example.org' },
    });
    expect(sent.status).toBe(200);
    const [{ id }] = await t.dataSource.query(
      'SELECT id FROM submission WHERE formId = ?',
      [form.form.id],
    );
    const patched = await request(
      `${t.url}/api/v1/forms/${form.form.id}/submissions/${id}`,
      { method: 'PATCH', apiKey: form.apiKey, json: { labels: ['Call back'] } },
    );
    expect(patched.status).toBe(200);
    const label = (await labels()).find((l) => l.name === 'Call back')!;
    const events = (await labelEvents()).length;

    const confirm = await asEditor.get(`${LABELS}/${label.id}/delete`);
    expectPage(confirm, 200, 'takes it off every submission that has it');
    expect(await labels()).toContainEqual(label);
    const deleted = await asEditor.post(
      `${LABELS}/${label.id}/delete`,
      {},
      { from: `${LABELS}/${label.id}/delete` },
    );
    expect(deleted.status).toBe(303);
    expect(deleted.location).toBe(`${LABELS}?done=deleted#labels-title`);
    expect((await labels()).map((l) => l.name)).toEqual(['Hot lead']);
    expect(
      await t.dataSource.query(
        'SELECT labelId FROM submission_label WHERE submissionId = ?',
        [id],
      ),
    ).toEqual([]);
    const [gone] = (await labelEvents()).slice(events);
    expect(gone).toMatchObject({
      action: 'label.deleted',
      targetId: label.id,
      details: { name: 'Call back', color: 'teal' },
    });
    // Already gone: the 404 page, no event.
    expectPage(
      await asEditor.post(`${LABELS}/${label.id}/delete`, {}, { from: LABELS }),
      404,
    );
    expect(await labelEvents()).toHaveLength(events + 1);
  });

  it('adds and removes a label on the selected submissions from the bulk bar, each row’s chip in its colour', async () => {
    const form = await createForm(t, owner.account.id);
    const base = `/dashboard/forms/${form.form.id}`;
    for (const name of ['First', 'Second', 'Third']) {
      const sent = await request(`${t.url}/api/submit/${form.form.id}`, {
        json: { name, email: 'bulk@example.org' },
      });
      expect(sent.status).toBe(200);
    }
    const ids = (
      await t.dataSource.query(
        'SELECT id FROM submission WHERE formId = ? ORDER BY id',
        [form.form.id],
      )
    ).map((row: { id: string }) => row.id);
    const tagged = async () =>
      (
        await t.dataSource.query(
          'SELECT sl.submissionId AS id FROM submission_label sl JOIN label l ON l.id = sl.labelId WHERE l.name = ? ORDER BY sl.submissionId',
          ['Hot lead'],
        )
      ).map((row: { id: string }) => row.id);
    const page = await asEditor.get(`${base}?status=new`);
    expect(page.html).toContain(
      '<option value="Hot lead">Add “Hot lead”</option>',
    );
    const added = await asEditor.post(
      `${base}/submissions/bulk`,
      [
        ['ids', ids[0]],
        ['ids', ids[1]],
        ['addLabel', 'Hot lead'],
        ['action', 'apply'],
        ['back', '?status=new'],
      ],
      { from: `${base}?status=new` },
    );
    expect(added.status).toBe(303);
    expect(added.location).toBe(
      `${base}?status=new&done=bulk-updated&updated=2#submissions-title`,
    );
    expect(await tagged()).toEqual(ids.slice(0, 2));
    const listed = await asEditor.get(`${base}?status=new&label=Hot%20lead`);
    expect(listed.html.match(/data-submission="/g)).toHaveLength(2);
    expect(listed.html).toContain(
      '<span class="chip chip-small label-red">Hot lead</span>',
    );
    const removed = await asEditor.post(
      `${base}/submissions/bulk`,
      [
        ['ids', ids[0]],
        ['removeLabel', 'Hot lead'],
        ['action', 'apply'],
      ],
      { from: `${base}?status=new` },
    );
    expect(removed.status).toBe(303);
    expect(await tagged()).toEqual([ids[1]]);
  });

  it('records a label made, changed and deleted over the API too, with the key as actor', async () => {
    const events = (await labelEvents()).length;
    const api = `${t.url}/api/v1/account/labels`;
    const made = await request(api, {
      apiKey: owner.apiKey,
      json: { name: 'From the API', color: 'pink' },
    });
    expect(made.status).toBe(201);
    const changed = await request(`${api}/${made.body.id}`, {
      method: 'PATCH',
      apiKey: owner.apiKey,
      json: { color: 'purple' },
    });
    expect(changed.status).toBe(200);
    const removed = await request(`${api}/${made.body.id}`, {
      method: 'DELETE',
      apiKey: owner.apiKey,
    });
    expect(removed.status).toBe(204);
    const recorded = (await labelEvents()).slice(events);
    expect(recorded.map((event) => event.action)).toEqual([
      'label.created',
      'label.updated',
      'label.deleted',
    ]);
    for (const event of recorded) {
      expect(event.actorType).toBe('account-key');
      expect(event.targetId).toBe(made.body.id);
    }
    expect(recorded[1].details).toEqual({
      color: { before: 'pink', after: 'purple' },
    });
  });

  it('lets a viewer read the labels, and refuses their every change with the 403 page', async () => {
    const [label] = await labels();
    const page = await asViewer.get(LABELS);
    expectPage(page, 200, label.name);
    expect(page.html).not.toContain('Create label');
    expect(page.html).not.toContain(`action="${LABELS}/${label.id}"`);
    const events = (await labelEvents()).length;
    const posts: Array<[string, Record<string, string>]> = [
      [LABELS, { name: 'Viewer’s', color: 'red' }],
      [`${LABELS}/${label.id}`, { name: 'Renamed', color: 'red' }],
      [`${LABELS}/${label.id}/delete`, {}],
    ];
    for (const [path, fields] of posts) {
      const refused = await asViewer.post(path, fields, { from: LABELS });
      expectPage(refused, 403, 'does not let you');
    }
    expectPage(await asViewer.get(`${LABELS}/${label.id}/delete`), 403);
    expect(await labels()).toEqual([label]);
    expect(await labelEvents()).toHaveLength(events);
  });

  it('refuses a post without its CSRF token, and another account’s label with the 404 page', async () => {
    const [label] = await labels();
    for (const [path, fields] of [
      [LABELS, { name: 'Forged', color: 'red' }],
      [`${LABELS}/${label.id}`, { name: 'Forged', color: 'red' }],
      [`${LABELS}/${label.id}/delete`, {}],
    ] as const) {
      const forged = await asEditor.post(path, fields, { csrf: null });
      expect(forged.status, path).toBe(403);
      expect(forged.headers.get('content-type')).toMatch(/text\/html/);
    }
    expect(await labels()).toEqual([label]);

    const stranger = await createAccount(t);
    const elsewhere = await clientOf(stranger.user, stranger.account.id);
    expectPage(
      await elsewhere.post(
        `${LABELS}/${label.id}`,
        { name: 'Mine now', color: 'red' },
        { from: LABELS },
      ),
      404,
    );
    expectPage(
      await elsewhere.post(
        `${LABELS}/${label.id}/delete`,
        {},
        { from: LABELS },
      ),
      404,
    );
    expect(await labels()).toEqual([label]);
    expect(await labels(stranger.account.id)).toEqual([]);
  });
});

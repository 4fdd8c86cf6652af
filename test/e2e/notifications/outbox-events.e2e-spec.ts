// The outbox as events: a commit batch writes one event listing its submissions that
// notify; the worker expands it into one delivery per submission and target and deletes
// it, and expanding the same event again (a crash between expansion and deletion, a
// repeated request) adds nothing. A submission notified after the fact (out of spam) gets
// its deliveries once, however often it is asked.
import { OutboxNotifier } from '../../../src/notifications/outbox/outbox-notifier.js';
import { OutboxExpansionService } from '../../../src/notifications/worker/outbox-expansion.service.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { insertSubmissions } from '../../factories/submissions.js';
import { request } from '../../support/http.js';
import { countRows } from '../../support/stored-rows.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

interface DeliveryRow {
  id: string;
  submissionId: string | null;
  channel: string;
  target: string;
  accountId: string;
  status: string;
}

describe('outbox events (e2e)', () => {
  let t: TestApp;
  let form: TestForm;
  let accountId: string;
  let hooks: string[];

  beforeEach(async () => {
    // No worker: the test expands events itself, one step at a time.
    t = await createTestApp({
      env: { WORKER_ENABLED: 'false', WEBHOOK_ALLOW_PRIVATE: 'true' },
    });
    accountId = (await createAccount(t)).account.id;
    form = await createForm(t, accountId);
    hooks = [];
    for (const path of ['a', 'b']) {
      const hook = await request(
        `${t.url}/api/v1/forms/${form.form.id}/webhooks`,
        {
          apiKey: form.apiKey,
          json: { url: `http://127.0.0.1:9/${path}` },
        },
      );
      expect(hook.status).toBe(201);
      hooks.push(hook.body.id as string);
    }
  });
  afterEach(async () => {
    await t.close();
  });

  const submit = (formId: string, name: string) =>
    request(`${t.url}/api/submit/${formId}`, {
      json: { name, email: 'ada@example.com', _subject: `About ${name}` },
    });
  /** Code-unit order (the database's collation may fold case). */
  const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const deliveries = async (): Promise<DeliveryRow[]> =>
    (
      (await t.dataSource.query(
        'SELECT id, submissionId, channel, target, accountId, status FROM delivery',
      )) as DeliveryRow[]
    ).sort(
      (a, b) =>
        byText(a.submissionId ?? '', b.submissionId ?? '') ||
        byText(a.target, b.target),
    );
  const submissionIds = async (): Promise<string[]> =>
    (
      (await t.dataSource.query(
        'SELECT id FROM submission ORDER BY id',
      )) as Array<{ id: string }>
    ).map((row) => row.id);
  const events = async () =>
    (await t.dataSource.query(
      'SELECT id, submissions, createdAt FROM outbox_event ORDER BY id',
    )) as Array<{ id: string; submissions: unknown; createdAt: unknown }>;
  const expandAll = async () => {
    const expander = t.app.get(OutboxExpansionService);
    while ((await expander.expand(10)).events > 0);
  };

  it('writes one event per batch and makes one delivery per submission and target from it', async () => {
    const answers = await Promise.all(
      ['One', 'Two', 'Three'].map((name) => submit(form.form.id, name)),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const ids = await submissionIds();
    expect(ids).toHaveLength(3);
    // Submissions answered together share a batch, and a batch has one event at most.
    const written = await events();
    expect(written.length).toBeGreaterThanOrEqual(1);
    expect(written.length).toBeLessThanOrEqual(3);
    const listed = written.flatMap((event) => {
      const body =
        typeof event.submissions === 'string'
          ? (JSON.parse(event.submissions) as unknown[][])
          : (event.submissions as unknown[][]);
      return body.map((entry) => entry[0]);
    });
    expect(listed.map(String).sort(byText)).toEqual(ids);
    expect(await deliveries()).toEqual([]);

    await expandAll();
    expect(await countRows(t, 'outbox_event')).toBe(0);
    const made = await deliveries();
    expect(
      made.map(({ submissionId, channel, target, accountId: a, status }) => ({
        submissionId,
        channel,
        target,
        accountId: a,
        status,
      })),
    ).toEqual(
      ids.flatMap((submissionId) =>
        [...hooks].sort(byText).map((target) => ({
          submissionId,
          channel: 'webhook',
          target,
          accountId,
          status: 'pending',
        })),
      ),
    );

    // The same events again, as if the worker had died between expanding and deleting
    // them: nothing new, the deliveries made first stay as they are.
    for (const event of written) {
      await t.dataSource.query(
        'INSERT INTO outbox_event (id, submissions, createdAt) VALUES (?, ?, ?)',
        [
          event.id,
          typeof event.submissions === 'string'
            ? event.submissions
            : JSON.stringify(event.submissions),
          event.createdAt,
        ],
      );
    }
    await expandAll();
    expect(await countRows(t, 'outbox_event')).toBe(0);
    expect(await deliveries()).toEqual(made);
  });

  it('writes no event for a form that notifies no one, nor for a refused post', async () => {
    const quiet = await createForm(t, accountId);
    expect((await submit(quiet.form.id, 'Quiet')).status).toBe(200);
    expect(
      (
        await request(`${t.url}/api/submit/${form.form.id}`, {
          json: { name: 'No email' },
        })
      ).status,
    ).toBe(400);
    expect(await countRows(t, 'submission')).toBe(1);
    expect(await countRows(t, 'outbox_event')).toBe(0);
  });

  it('makes no delivery for a submission deleted before its event is expanded', async () => {
    expect((await submit(form.form.id, 'Kept')).status).toBe(200);
    expect((await submit(form.form.id, 'Deleted')).status).toBe(200);
    const [kept, deleted] = await submissionIds();
    const removed = await request(
      `${t.url}/api/v1/forms/${form.form.id}/submissions/${deleted}`,
      { method: 'DELETE', apiKey: form.apiKey },
    );
    expect(removed.status).toBe(204);
    await expandAll();
    expect([
      ...new Set((await deliveries()).map((row) => row.submissionId)),
    ]).toEqual([kept]);
    expect(await countRows(t, 'outbox_event')).toBe(0);
  });

  it('expands events together while they list no more submissions than allowed', async () => {
    const stored = await insertSubmissions(
      t,
      form.form.id,
      Array.from({ length: 4 }, () => ({ createdAt: new Date() })),
    );
    const outbox = t.app.get(OutboxNotifier);
    // Three events, oldest first (a millisecond apart: their ids sort by time): one
    // submission, two, one.
    for (const ids of [[0], [1, 2], [3]]) {
      await outbox.notify(ids.map((i) => stored[i].id));
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    expect(await countRows(t, 'outbox_event')).toBe(3);
    const expander = t.app.get(OutboxExpansionService);
    // The first two list three submissions: they go together; the third waits.
    expect(await expander.expand(16, 3)).toEqual({
      events: 2,
      deliveries: 3 * hooks.length,
      more: true,
    });
    const expanded = () =>
      deliveries().then((rows) => [
        ...new Set(rows.map((row) => row.submissionId)),
      ]);
    expect(await expanded()).toEqual(
      stored
        .slice(0, 3)
        .map((row) => row.id)
        .sort(byText),
    );
    // An event listing more than allowed on its own is still expanded, alone.
    expect(await expander.expand(16, 0)).toEqual({
      events: 1,
      deliveries: hooks.length,
      more: false,
    });
    expect(await expanded()).toEqual(stored.map((row) => row.id).sort(byText));
    expect(await countRows(t, 'outbox_event')).toBe(0);
  });

  it('notifies a submission after the fact once, however often asked', async () => {
    // A submission stored without notifying (as a spam one is).
    const [stored] = await insertSubmissions(t, form.form.id, [
      { createdAt: new Date() },
    ]);
    expect(await countRows(t, 'outbox_event')).toBe(0);
    const outbox = t.app.get(OutboxNotifier);
    await outbox.notify([stored.id]);
    await outbox.notify([stored.id]);
    await expandAll();
    await outbox.notify([stored.id]);
    await expandAll();
    const made = await deliveries();
    expect(made.map((row) => [row.submissionId, row.target])).toEqual(
      [...hooks].sort(byText).map((hook) => [stored.id, hook]),
    );
  });
});

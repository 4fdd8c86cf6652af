// The submit route as a hot path: the form configuration cached in memory and kept true
// when forms change (on this instance at once; on others through Redis, or within the
// cache lifetime without it), the commit queue as the one writer of submissions, and the
// route free of the dashboard's cookies and security headers.
import type { SplitFastifyAdapter } from '../../../src/common/http/split-fastify.adapter.js';
import { FormChangesService } from '../../../src/forms/changes/form-changes.service.js';
import { Form } from '../../../src/forms/form.entity.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { CommitQueue } from '../../../src/submit/commit/commit-queue.js';
import {
  FormConfigCache,
  FORM_TTL_MS,
} from '../../../src/submit/form-config.cache.js';
import { newUlid } from '../../../src/common/values/ulid.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import { request } from '../../support/http.js';
import { waitFor } from '../../support/server-process.js';
import {
  describeWhen,
  NEEDS_REDIS,
  TEST_REDIS_URL,
} from '../../support/skips.js';
import {
  createTestDatabase,
  usingMysql,
  type TestDatabase,
} from '../../support/test-database.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const RECEIVED = { success: true, message: 'Submission received' };
const HIGH_LIMIT = { SUBMIT_RATE_LIMIT: '100000' };

const submit = (t: TestApp, formId: string, json: unknown) =>
  request(`${t.url}/api/submit/${formId}`, { json });
const storedCount = (t: TestApp, formId: string) =>
  t.dataSource.getRepository(Submission).countBy({ formId });

describe('submit hot path (e2e)', () => {
  let t: TestApp;
  let accountId: string;
  let apiKey: string;

  beforeAll(async () => {
    // No worker: what a batch leaves in the outbox stays there to be looked at.
    t = await createTestApp({
      env: { ...HIGH_LIMIT, WORKER_ENABLED: 'false' },
    });
    const owner = await createAccount(t);
    accountId = owner.account.id;
    apiKey = owner.apiKey;
  });
  afterAll(async () => {
    await t.close();
  });

  describe('the cached form configuration', () => {
    it('reads a form once for many submissions', async () => {
      const { form } = await createForm(t, accountId);
      const cache = t.app.get(FormConfigCache);
      const before = cache.loads;
      for (let i = 0; i < 20; i += 1) {
        const res = await submit(t, form.id, {
          name: `n${i}`,
          email: 'a@example.com',
        });
        expect(res.status).toBe(200);
      }
      expect(cache.loads - before).toBe(1);
      expect(await storedCount(t, form.id)).toBe(20);
    });

    it('applies a change of fields to the very next submission', async () => {
      const { form } = await createForm(t, accountId);
      expect(
        (await submit(t, form.id, { name: 'x', email: 'a@example.com' }))
          .status,
      ).toBe(200);
      const put = await request(`${t.url}/api/v1/forms/${form.id}`, {
        method: 'PUT',
        apiKey,
        json: {
          name: 'Renamed',
          fields: [{ id: 'phone', type: 'tel', required: true }],
        },
      });
      expect(put.status).toBe(200);
      const old = await submit(t, form.id, {
        name: 'x',
        email: 'a@example.com',
      });
      expect(old.status).toBe(400);
      expect(old.body.errors).toEqual([
        'phone is required',
        '"name" is not a field of this form',
        '"email" is not a field of this form',
      ]);
      const fresh = await submit(t, form.id, { phone: '+44 20 7946 0000' });
      expect(fresh.status).toBe(200);
      const rows = await t.dataSource
        .getRepository(Submission)
        .find({ where: { formId: form.id }, order: { id: 'ASC' } });
      expect(rows.map((row) => row.data)).toEqual([
        { name: 'x', email: 'a@example.com' },
        { phone: '+44 20 7946 0000' },
      ]);
    });

    it('answers 404 at once after the form is deleted', async () => {
      const { form } = await createForm(t, accountId);
      expect(
        (await submit(t, form.id, { name: 'x', email: 'a@example.com' }))
          .status,
      ).toBe(200);
      const deleted = await request(`${t.url}/api/v1/forms/${form.id}`, {
        method: 'DELETE',
        apiKey,
      });
      expect(deleted.status).toBe(204);
      const res = await submit(t, form.id, {
        name: 'x',
        email: 'a@example.com',
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Form not found' });
      expect(await storedCount(t, form.id)).toBe(0);
    });

    it('remembers an unknown id without reading the database again, until a form with it is created', async () => {
      const cache = t.app.get(FormConfigCache);
      const id = 'not-yet-a-form-0001';
      expect((await submit(t, id, { a: '1' })).status).toBe(404);
      const loads = cache.loads;
      expect((await submit(t, id, { a: '1' })).status).toBe(404);
      expect(cache.loads).toBe(loads);
      // A form with that id appears (as another instance would create it) and is announced.
      const { form: template } = await createForm(t, accountId, { fields: [] });
      await t.dataSource
        .getRepository(Form)
        .update({ id: template.id }, { id });
      t.app.get(FormChangesService).created(id);
      const res = await submit(t, id, { a: '1' });
      expect(res.status).toBe(200);
      expect(await storedCount(t, id)).toBe(1);
    });
  });

  describe('the commit queue', () => {
    it('stores every submission of a concurrent burst', async () => {
      const { form } = await createForm(t, accountId, { fields: [] });
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, n) =>
          submit(t, form.id, { n: String(n) }),
        ),
      );
      expect(answers.map((res) => res.status)).toEqual(Array(60).fill(200));
      const rows = await t.dataSource
        .getRepository(Submission)
        .find({ where: { formId: form.id } });
      expect(
        rows.map((row) => Number(row.data.n)).sort((a, b) => a - b),
      ).toEqual(Array.from({ length: 60 }, (_, n) => n));
    });

    it('refuses only the row whose form was deleted, and commits the rest of its batch', async () => {
      const { form } = await createForm(t, accountId, { fields: [] });
      const queue = t.app.get(CommitQueue);
      const row = (formId: string, n: number) => ({
        submission: {
          id: newUlid(),
          formId,
          data: JSON.stringify({ n }),
          ip: '203.0.113.9',
          userAgent: null,
          origin: null,
          createdAt: new Date(),
          spam: false,
          spamReasons: null,
        },
      });
      // One batch: the middle row's form no longer exists.
      const results = await Promise.allSettled([
        queue.commit(row(form.id, 1)),
        queue.commit(row('a-form-just-deleted', 2)),
        queue.commit(row(form.id, 3)),
      ]);
      expect(results.map((r) => r.status)).toEqual([
        'fulfilled',
        'rejected',
        'fulfilled',
      ]);
      const reason = (results[1] as PromiseRejectedResult).reason as Error;
      expect(reason.message).toBe('Form not found');
      const stored = await t.dataSource
        .getRepository(Submission)
        .find({ where: { formId: form.id } });
      expect(stored.map((s) => Number(s.data.n)).sort((a, b) => a - b)).toEqual(
        [1, 3],
      );
      expect(stored[0].ip).toBe('203.0.113.9');
      expect(
        await t.dataSource
          .getRepository(Submission)
          .countBy({ formId: 'a-form-just-deleted' }),
      ).toBe(0);
    });

    it("lists in the batch's one outbox event only the notifying rows it stored", async () => {
      const { form } = await createForm(t, accountId, { fields: [] });
      const queue = t.app.get(CommitQueue);
      const row = (formId: string, n: number, notifies: boolean) => {
        const id = newUlid();
        return {
          submission: {
            id,
            formId,
            data: JSON.stringify({ n }),
            ip: null,
            userAgent: null,
            origin: null,
            createdAt: new Date(),
            spam: false,
            spamReasons: null,
          },
          outbox: notifies
            ? { submissionId: id, payload: n === 1 ? { _subject: 'Hi' } : null }
            : undefined,
        };
      };
      const rows = [
        row(form.id, 1, true),
        row('a-form-just-deleted', 2, true),
        row(form.id, 3, false),
        row(form.id, 4, true),
      ];
      const results = await Promise.allSettled(
        rows.map((item) => queue.commit(item)),
      );
      expect(results.map((r) => r.status)).toEqual([
        'fulfilled',
        'rejected',
        'fulfilled',
        'fulfilled',
      ]);
      const events = (await t.dataSource.query(
        'SELECT submissions FROM outbox_event',
      )) as Array<{ submissions: unknown }>;
      expect(events).toHaveLength(1);
      const listed =
        typeof events[0].submissions === 'string'
          ? JSON.parse(events[0].submissions)
          : events[0].submissions;
      expect(listed).toEqual([
        [rows[0].submission.id, { _subject: 'Hi' }],
        [rows[3].submission.id],
      ]);
    });

    it('keeps the stored timestamp and id in the format the submissions API pages by', async () => {
      const { form, apiKey: formKey } = await createForm(t, accountId, {
        fields: [],
      });
      const before = Date.now();
      expect((await submit(t, form.id, { hello: 'world' })).status).toBe(200);
      const list = await request(
        `${t.url}/api/v1/forms/${form.id}/submissions`,
        {
          apiKey: formKey,
        },
      );
      expect(list.status).toBe(200);
      expect(list.body.data).toHaveLength(1);
      const [item] = list.body.data as Array<{
        id: string;
        createdAt: string;
        data: unknown;
      }>;
      expect(item.data).toEqual({ hello: 'world' });
      expect(item.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
      const at = Date.parse(item.createdAt);
      expect(at).toBeGreaterThanOrEqual(before);
      expect(at).toBeLessThanOrEqual(Date.now());
      const from = new Date(at).toISOString();
      const ranged = await request(
        `${t.url}/api/v1/forms/${form.id}/submissions?from=${from}`,
        { apiKey: formKey },
      );
      expect(ranged.body.data).toHaveLength(1);
    });

    it('counts what the honeypot caught, and stores none of it', async () => {
      const { form } = await createForm(t, accountId);
      for (let i = 0; i < 3; i += 1) {
        const res = await submit(t, form.id, {
          name: 'Bot',
          email: 'bot@example.com',
          _honeypot: 'gotcha',
        });
        expect(res.status).toBe(200);
        expect(res.body).toEqual(RECEIVED);
      }
      const stored = await t.dataSource
        .getRepository(Form)
        .findOneByOrFail({ id: form.id });
      expect(stored.honeypotHits).toBe(3);
      expect(await storedCount(t, form.id)).toBe(0);
    });
  });

  describe('a route without the dashboard machinery', () => {
    it('sends no cookie and none of the dashboard security headers, which the dashboard still gets', async () => {
      const { form } = await createForm(t, accountId);
      const res = await request(`${t.url}/api/submit/${form.id}`, {
        json: { name: 'x', email: 'a@example.com' },
        headers: { cookie: 'formgate_session=abc; other=1' },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('set-cookie')).toBeNull();
      expect(res.headers.get('content-security-policy')).toBeNull();
      expect(res.headers.get('x-frame-options')).toBeNull();
      const login = await request(`${t.url}/dashboard/login`);
      expect(login.status).toBe(200);
      expect(login.headers.get('content-security-policy')).toContain(
        "default-src 'self'",
      );
      expect(login.headers.get('set-cookie')).toMatch(/dashboard_csrf=/);
    });

    it('is served by a Fastify instance of its own, without the plugins and hooks of every other route', async () => {
      const adapter = t.app.getHttpAdapter() as SplitFastifyAdapter;
      const main = adapter.getInstance();
      for (const url of ['/api/submit/:formId', '/f/:formId']) {
        expect(adapter.lean.hasRoute({ method: 'POST', url })).toBe(true);
        expect(main.hasRoute({ method: 'POST', url })).toBe(false);
      }
      // The preflights and the 405 of a GET stay where the other routes are.
      expect(
        main.hasRoute({ method: 'OPTIONS', url: '/api/submit/:formId' }),
      ).toBe(true);
      const plugins = adapter.lean.printPlugins();
      for (const name of ['helmet', 'cookie', 'view', 'static', 'middie']) {
        expect(main.printPlugins()).toContain(name);
        expect(plugins).not.toContain(name);
      }
    });

    it('answers a post without a form id, or to a path under the route that it does not have, with 404 and its CORS and rate-limit headers', async () => {
      for (const path of [
        '/api/submit/',
        '/api/submit/abc/def',
        '/api/submit',
      ]) {
        const res = await request(`${t.url}${path}`, { json: { a: '1' } });
        expect(res.status).toBe(404);
        expect(Object.keys(res.body)).toEqual(['error']);
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
        expect(res.headers.get('x-ratelimit-limit')).toBe('100000');
      }
    });

    it('answers a GET with 405, Allow: POST and how to post', async () => {
      const { form } = await createForm(t, accountId);
      const res = await request(`${t.url}/api/submit/${form.id}`);
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST, OPTIONS');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(Object.keys(res.body)).toEqual(['error']);
      expect(res.body.error).toMatch(/send them with POST/);
      expect(await storedCount(t, form.id)).toBe(0);
    });
  });
});

describe('form changes across instances (e2e)', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase({ shared: true });
  });
  afterAll(async () => {
    await database.drop();
  });

  async function pair(
    env: Record<string, string>,
  ): Promise<[TestApp, TestApp]> {
    const a = await createTestApp({ database, env: { ...HIGH_LIMIT, ...env } });
    const b = await createTestApp({
      database,
      env: { ...HIGH_LIMIT, ...env, MIGRATIONS_RUN: 'false' },
    });
    return [a, b];
  }

  async function timeUntil(check: () => Promise<boolean>, limitMs: number) {
    const started = Date.now();
    await waitFor(check, limitMs, 'the change to reach the other instance');
    return Date.now() - started;
  }

  describeWhen(Boolean(TEST_REDIS_URL), NEEDS_REDIS)('with Redis', () => {
    let a: TestApp;
    let b: TestApp;
    let apiKey: string;
    let accountId: string;

    beforeAll(async () => {
      [a, b] = await pair({ REDIS_URL: TEST_REDIS_URL! });
      const owner = await createAccount(a);
      apiKey = owner.apiKey;
      accountId = owner.account.id;
      await waitFor(
        async () =>
          a.app.get(FormChangesService).sharedAcrossInstances &&
          b.app.get(FormChangesService).sharedAcrossInstances,
        5000,
        'both instances listening for form changes',
      );
    });
    afterAll(async () => {
      await b.close();
      await a.close();
    });

    it('an update on one instance reaches the other at once', async () => {
      const { form } = await createForm(a, accountId);
      expect(
        (await submit(b, form.id, { name: 'x', email: 'a@example.com' }))
          .status,
      ).toBe(200);
      const put = await request(`${a.url}/api/v1/forms/${form.id}`, {
        method: 'PUT',
        apiKey,
        json: { name: 'New', fields: [{ id: 'phone', type: 'tel' }] },
      });
      expect(put.status).toBe(200);
      const ms = await timeUntil(
        async () =>
          (await submit(b, form.id, { phone: '+1 555 0100' })).status === 200,
        FORM_TTL_MS,
      );
      expect(ms).toBeLessThan(1000);
    });

    it('a deletion on one instance reaches the other at once', async () => {
      const { form } = await createForm(a, accountId);
      expect(
        (await submit(b, form.id, { name: 'x', email: 'a@example.com' }))
          .status,
      ).toBe(200);
      await request(`${a.url}/api/v1/forms/${form.id}`, {
        method: 'DELETE',
        apiKey,
      });
      const ms = await timeUntil(
        async () =>
          (await submit(b, form.id, { name: 'x', email: 'a@example.com' }))
            .status === 404,
        FORM_TTL_MS,
      );
      expect(ms).toBeLessThan(1000);
    });

    it('a creation on one instance clears the other instance\'s "no such form"', async () => {
      const id = `pending-${Date.now()}`;
      expect((await submit(b, id, { a: '1' })).status).toBe(404);
      const { form } = await createForm(a, accountId, { fields: [] });
      await a.dataSource.getRepository(Form).update({ id: form.id }, { id });
      a.app.get(FormChangesService).created(id);
      const ms = await timeUntil(
        async () => (await submit(b, id, { a: '1' })).status === 200,
        FORM_TTL_MS,
      );
      expect(ms).toBeLessThan(1000);
    });
  });

  describe('without Redis', () => {
    let a: TestApp;
    let b: TestApp;
    let apiKey: string;
    let accountId: string;

    beforeAll(async () => {
      [a, b] = await pair({});
      const owner = await createAccount(a);
      apiKey = owner.apiKey;
      accountId = owner.account.id;
    });
    afterAll(async () => {
      await b.close();
      await a.close();
    });

    it('an update on one instance reaches the other within the cache lifetime', async () => {
      const { form } = await createForm(a, accountId);
      expect(
        (await submit(b, form.id, { name: 'x', email: 'a@example.com' }))
          .status,
      ).toBe(200);
      const changedAt = Date.now();
      const put = await request(`${a.url}/api/v1/forms/${form.id}`, {
        method: 'PUT',
        apiKey,
        json: { name: 'New', fields: [{ id: 'phone', type: 'tel' }] },
      });
      expect(put.status).toBe(200);
      await waitFor(
        async () =>
          (await submit(b, form.id, { phone: '+1 555 0100' })).status === 200,
        FORM_TTL_MS + 2000,
        'the change to reach the other instance',
      );
      expect(Date.now() - changedAt).toBeLessThanOrEqual(FORM_TTL_MS + 500);
    });
  });
});

describeWhen(!usingMysql(), 'runs on SQLite only (TEST_DATABASE_URL is set)')(
  'SQLite durability settings (e2e)',
  () => {
    it('writes a file database in WAL mode, with every commit synced to disk, and waits for a busy lock', async () => {
      const database = await createTestDatabase({ shared: true });
      const t = await createTestApp({ database });
      try {
        const value = async (pragma: string) =>
          Object.values(
            ((await t.dataSource.query(`PRAGMA ${pragma}`)) as object[])[0],
          )[0] as unknown;
        expect(await value('journal_mode')).toBe('wal');
        expect(await value('synchronous')).toBe(2); // FULL
        expect(await value('busy_timeout')).toBe(5000);
        expect(await value('foreign_keys')).toBe(1);
      } finally {
        await t.close();
        await database.drop();
      }
    });
  },
);

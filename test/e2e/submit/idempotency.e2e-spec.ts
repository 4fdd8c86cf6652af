// Idempotency-Key on submit and on the POSTs of /api/v1 (docs/api.md): a retry after a
// lost answer is a replay (one row), a concurrent repeat waits its turn (409) or replays,
// a different body with the key is refused (422), only 2xx answers are kept, the records
// are shared by instances through the database and swept once expired. On /api/v1 a key
// belongs to the API key that sent it, never to its account or form: the same header and
// body from another key is a request of its own (never a replay of the first key's answer,
// whose secret it would hand over), and an expiring key cannot obtain by replay a key that
// outlives it. A keyed retry after a spent CAPTCHA answer is in
// idempotent-captcha-retry.e2e-spec.ts. On SQLite by default, on MariaDB with
// TEST_DATABASE_URL.
import { AccountApiKey } from '../../../src/accounts/account-api-key.entity.js';
import { hashApiKey } from '../../../src/auth/api-keys.js';
import { Form } from '../../../src/forms/form.entity.js';
import { IdempotencyRecord } from '../../../src/idempotency/idempotency-record.entity.js';
import { IdempotencySweep } from '../../../src/idempotency/idempotency-sweep.js';
import { IdempotencyStore } from '../../../src/idempotency/idempotency.store.js';
import {
  idempotencyRecordId,
  requestFingerprint,
} from '../../../src/idempotency/idempotency-key.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { CommitQueue } from '../../../src/submit/commit/commit-queue.js';
import type { CommitItem } from '../../../src/submit/commit/submission-writer.js';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import { errorBody } from '../../support/errors.js';
import { expectProblem } from '../../support/answers.js';
import { request, type HttpResponse } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import {
  createTestDatabase,
  type TestDatabase,
} from '../../support/test-database.js';

const ENV = { SUBMIT_RATE_LIMIT: '100000' };
const RECEIVED = { success: true, message: 'Submission received' };
const BODY = { name: 'Ada', email: 'ada@example.com', message: 'Hello' };
const REUSED = errorBody(
  'This Idempotency-Key was already used with a different request (method, path or body)',
);
const IN_FLIGHT = errorBody(
  'A request with this Idempotency-Key is still in progress: retry in a second',
);
const INVALID = errorBody(
  'Idempotency-Key must be 1 to 255 printable ASCII characters',
);

let keyCounter = 0;
const newKey = () => `key-${process.pid}-${Date.now()}-${++keyCounter}`;

/** A gate a hooked commit waits at until the test opens it. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

/** Replaces the app's CommitQueue.commit with `hook(original, item)`; answers the undo. */
function hookCommit(
  t: TestApp,
  hook: (
    original: (item: CommitItem) => Promise<void>,
    item: CommitItem,
  ) => Promise<void>,
): () => void {
  const queue = t.app.get(CommitQueue);
  const original = queue.commit.bind(queue);
  queue.commit = (item: CommitItem) => hook(original, item);
  return () => {
    queue.commit = original;
  };
}

async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('timed out waiting');
}

describe('Idempotency-Key (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let formId: string;
  let formKey: string;

  beforeAll(async () => {
    t = await createTestApp({ env: ENV });
    owner = await createAccount(t);
    const form = await createForm(t, owner.account.id);
    formId = form.form.id;
    formKey = form.apiKey;
  });
  afterAll(async () => {
    await t.close();
  });

  const submit = (
    key: string | undefined,
    json: unknown = BODY,
    id = formId,
  ): Promise<HttpResponse> =>
    request(`${t.url}/api/submit/${id}`, {
      json,
      headers: key === undefined ? {} : { 'idempotency-key': key },
    });
  const rows = (id = formId) =>
    t.dataSource.getRepository(Submission).countBy({ formId: id });
  const records = () => t.dataSource.getRepository(IdempotencyRecord).count();

  describe('on submit', () => {
    it('answers a repeat with the kept answer and stores one row', async () => {
      const before = await rows();
      const key = newKey();
      const first = await submit(key);
      expect(first.status).toBe(200);
      expect(first.body).toEqual(RECEIVED);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const again = await submit(key);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(RECEIVED);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.headers.get('access-control-allow-origin')).toBe('*');
      expect(await rows()).toBe(before + 1);
      // The record: the first answer, encrypted at rest; the key itself is not stored.
      const record = await t.dataSource
        .getRepository(IdempotencyRecord)
        .findOneByOrFail({ id: idempotencyRecordId(`submit:${formId}`, key) });
      expect(record.status).toBe(200);
      expect(JSON.stringify(record)).not.toContain('Submission received');
      expect(JSON.stringify(record)).not.toContain(key);
      expect(record.expiresAt.getTime() - record.createdAt.getTime()).toBe(
        86_400_000,
      );
    });

    it('is a replay after the answer was lost between the commit and the reply', async () => {
      const before = await rows();
      const key = newKey();
      const client = new AbortController();
      let committed: Promise<void> | undefined;
      const undo = hookCommit(t, (original, item) => {
        committed = original(item).then(() => {
          // Committed; the connection dies before the answer is written.
          client.abort();
        });
        return committed;
      });
      try {
        await expect(
          fetch(`${t.url}/api/submit/${formId}`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'idempotency-key': key,
            },
            body: JSON.stringify(BODY),
            signal: client.signal,
          }),
        ).rejects.toThrow();
      } finally {
        undo();
      }
      await committed;
      // The first request has ended on the server (its retry would otherwise get 409).
      await new Promise((resolve) => setImmediate(resolve));
      expect(await rows()).toBe(before + 1);
      const retry = await submit(key);
      expect(retry.status).toBe(200);
      expect(retry.body).toEqual(RECEIVED);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(await rows()).toBe(before + 1);
    });

    it('answers 409 with Retry-After to a repeat while the first is in flight, one row', async () => {
      const before = await rows();
      const key = newKey();
      const held = gate();
      let waiting = false;
      const undo = hookCommit(t, async (original, item) => {
        waiting = true;
        await held.wait;
        return original(item);
      });
      try {
        const first = submit(key);
        await until(() => waiting);
        const second = await submit(key);
        expectProblem(second, 409, IN_FLIGHT);
        expect(second.headers.get('retry-after')).toBe('1');
        held.open();
        expect((await first).status).toBe(200);
      } finally {
        undo();
      }
      const third = await submit(key);
      expect(third.status).toBe(200);
      expect(third.headers.get('idempotent-replayed')).toBe('true');
      expect(await rows()).toBe(before + 1);
    });

    it('stores one row for two concurrent requests with one key', async () => {
      const before = await rows();
      const key = newKey();
      const answers = await Promise.all([submit(key), submit(key)]);
      const statuses = answers.map((a) => a.status).sort((x, y) => x - y);
      expect([
        [200, 200],
        [200, 409],
      ]).toContainEqual(statuses);
      expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(0);
      expect(await rows()).toBe(before + 1);
    });

    it('refuses the key with a different body (422), storing nothing', async () => {
      const key = newKey();
      expect((await submit(key)).status).toBe(200);
      const before = await rows();
      const changed = await submit(key, { ...BODY, message: 'Changed' });
      expectProblem(changed, 422, REUSED);
      expect(changed.headers.get('idempotent-replayed')).toBeNull();
      expect(await rows()).toBe(before);
    });

    it('keeps no 4xx answer: a corrected retry with the key proceeds', async () => {
      const before = await rows();
      const key = newKey();
      const invalid = await submit(key, { name: 'Ada' });
      expect(invalid.status).toBe(400);
      const corrected = await submit(key);
      expect(corrected.status).toBe(200);
      expect(corrected.headers.get('idempotent-replayed')).toBeNull();
      expect(await rows()).toBe(before + 1);
    });

    it('scopes the key to the form', async () => {
      const other = await createForm(t, owner.account.id);
      const key = newKey();
      expect((await submit(key)).status).toBe(200);
      const elsewhere = await submit(key, BODY, other.form.id);
      expect(elsewhere.status).toBe(200);
      expect(elsewhere.headers.get('idempotent-replayed')).toBeNull();
      expect(await rows(other.form.id)).toBe(1);
    });

    it.each([
      ['longer than 255 characters', 'k'.repeat(256)],
      ['not printable ASCII', 'caf\u00e9'],
    ])('refuses a key %s (400), storing nothing', async (_what, key) => {
      const before = await rows();
      const answer = await submit(key);
      expectProblem(answer, 400, INVALID);
      expect(await rows()).toBe(before);
    });

    it('writes no record without the header', async () => {
      const before = await records();
      expect((await submit(undefined)).status).toBe(200);
      expect(await records()).toBe(before);
    });

    it('replays after an expired record is swept, as new', async () => {
      const key = newKey();
      expect((await submit(key)).status).toBe(200);
      const counts = await t.app
        .get(IdempotencySweep)
        .sweepOnce(Date.now() + 86_400_000 + 1000);
      expect(counts.records).toBeGreaterThan(0);
      expect(await records()).toBe(0);
      const before = await rows();
      const fresh = await submit(key);
      expect(fresh.status).toBe(200);
      expect(fresh.headers.get('idempotent-replayed')).toBeNull();
      expect(await rows()).toBe(before + 1);
    });
  });

  describe('on the POSTs of /api/v1', () => {
    const createFormRequest = (key: string, name = 'Idempotent form') =>
      request(`${t.url}/api/v1/forms`, {
        apiKey: owner.apiKey,
        json: { name, fields: [] },
        headers: { 'idempotency-key': key },
      });
    const forms = () =>
      t.dataSource.getRepository(Form).countBy({ accountId: owner.account.id });

    it('creates once and answers a repeat with the kept answer', async () => {
      const before = await forms();
      const key = newKey();
      const first = await createFormRequest(key);
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const again = await createFormRequest(key);
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
      expect(await forms()).toBe(before + 1);
      const changed = await createFormRequest(key, 'Another name');
      expectProblem(changed, 422, REUSED);
      expect(await forms()).toBe(before + 1);
    });

    it('keeps a new API key answer encrypted at rest, and replays it', async () => {
      const key = newKey();
      const first = await request(`${t.url}/api/v1/account/keys`, {
        apiKey: owner.apiKey,
        json: { name: 'reporting' },
        headers: { 'idempotency-key': key },
      });
      expect(first.status).toBe(201);
      const secret = first.body.apiKey as string;
      expect(secret).toMatch(/^fga_/);
      const stored = await t.dataSource.query(
        'SELECT * FROM idempotency_record',
      );
      expect(JSON.stringify(stored)).not.toContain(secret);
      const again = await request(`${t.url}/api/v1/account/keys`, {
        apiKey: owner.apiKey,
        json: { name: 'reporting' },
        headers: { 'idempotency-key': key },
      });
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
      const list = await request(`${t.url}/api/v1/account/keys`, {
        apiKey: owner.apiKey,
      });
      expect(
        (list.body.data as Array<{ name: string }>).filter(
          (k) => k.name === 'reporting',
        ),
      ).toHaveLength(1);
    });

    it('answers 409 while the key is claimed by a request in flight (any instance)', async () => {
      const key = newKey();
      const path = '/api/v1/forms';
      const body = { name: 'In flight', fields: [] };
      // The scope of the key that sends it: an account key's own id.
      const { id: keyId } = await t.dataSource
        .getRepository(AccountApiKey)
        .findOneByOrFail({ keyHash: hashApiKey(owner.apiKey) });
      const id = idempotencyRecordId(`api:account-key:${keyId}`, key);
      const store = t.app.get(IdempotencyStore);
      // What another instance's interceptor writes before running the route.
      expect(
        await store.claim(id, requestFingerprint('POST', path, body)),
      ).toBe('claimed');
      const before = await forms();
      const answer = await request(`${t.url}${path}`, {
        apiKey: owner.apiKey,
        json: body,
        headers: { 'idempotency-key': key },
      });
      expectProblem(answer, 409, IN_FLIGHT);
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(await forms()).toBe(before);
      // A claim whose process died lapses: the key is then free again.
      const lapsed = await store.claim(
        id,
        requestFingerprint('POST', path, body),
        Date.now() + 61_000,
      );
      expect(lapsed).toBe('claimed');
    });

    it('keeps no 4xx answer: a corrected retry proceeds', async () => {
      const before = await forms();
      const key = newKey();
      const invalid = await request(`${t.url}/api/v1/forms`, {
        apiKey: owner.apiKey,
        json: { name: '' },
        headers: { 'idempotency-key': key },
      });
      expect(invalid.status).toBe(400);
      const corrected = await createFormRequest(key);
      expect(corrected.status).toBe(201);
      expect(corrected.headers.get('idempotent-replayed')).toBeNull();
      expect(await forms()).toBe(before + 1);
    });

    it('scopes the key to the API key owner: a form key has its own', async () => {
      const key = newKey();
      const asForm = (json: unknown) =>
        request(`${t.url}/api/v1/forms/${formId}/domains`, {
          apiKey: formKey,
          json,
          headers: { 'idempotency-key': key },
        });
      expect((await createFormRequest(key)).status).toBe(201);
      const hook = { domain: 'idempotent.example.com' };
      const first = await asForm(hook);
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const again = await asForm(hook);
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
    });

    it('refuses an invalid key (400)', async () => {
      const answer = await createFormRequest('k'.repeat(256));
      expectProblem(answer, 400, INVALID);
    });

    describe('scoped to the API key that sent it', () => {
      // An account of its own: these count the keys they make by name.
      let scoped: TestAccount;
      beforeAll(async () => {
        scoped = await createAccount(t);
      });

      const createKey = (apiKey: string, key: string, json: unknown) =>
        request(`${t.url}/api/v1/account/keys`, {
          apiKey,
          json,
          headers: { 'idempotency-key': key },
        });

      it('gives a second account key its own answer, not the first key’s secret', async () => {
        const second = await createKey(scoped.apiKey, newKey(), {
          name: 'second',
        });
        expect(second.status).toBe(201);
        const key = newKey();
        const first = await createKey(scoped.apiKey, key, {
          name: 'reporting',
        });
        expect(first.status).toBe(201);

        const other = await createKey(second.body.apiKey as string, key, {
          name: 'reporting',
        });
        expect(other.status).toBe(201);
        expect(other.headers.get('idempotent-replayed')).toBeNull();
        expect(other.body.apiKey).toMatch(/^fga_/);
        expect(other.body.apiKey).not.toBe(first.body.apiKey);
        expect(other.body.id).not.toBe(first.body.id);

        // The first key still gets its own answer again.
        const again = await createKey(scoped.apiKey, key, {
          name: 'reporting',
        });
        expect(again.status).toBe(201);
        expect(again.headers.get('idempotent-replayed')).toBe('true');
        expect(again.body).toEqual(first.body);

        const listed = await request(`${t.url}/api/v1/account/keys`, {
          apiKey: scoped.apiKey,
        });
        const names = (listed.body.data as Array<{ name: string }>).map(
          (k) => k.name,
        );
        expect(names.filter((name) => name === 'reporting')).toHaveLength(2);
      });

      it('does not let an expiring key replay a permanent key into its hands', async () => {
        const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
        const expiring = await createKey(scoped.apiKey, newKey(), {
          name: 'expiring',
          expiresAt,
        });
        expect(expiring.status).toBe(201);
        const key = newKey();
        const permanent = await createKey(scoped.apiKey, key, {
          name: 'forever',
        });
        expect(permanent.status).toBe(201);
        expect(permanent.body.expiresAt).toBeNull();

        const attempt = await createKey(expiring.body.apiKey as string, key, {
          name: 'forever',
        });
        expect(attempt.status).toBe(400);
        expect(attempt.headers.get('idempotent-replayed')).toBeNull();
        expect(attempt.body.error).toBe('Validation failed');
        expect(attempt.text).not.toContain(permanent.body.apiKey as string);
      });

      it('keeps a form’s previous key (during a rotation’s grace) out of the rotation’s answer', async () => {
        const form = await createForm(t, scoped.account.id);
        const key = newKey();
        const rotate = (apiKey: string) =>
          request(`${t.url}/api/v1/forms/${form.form.id}/api-key`, {
            apiKey,
            json: { graceSeconds: 3600 },
            headers: { 'idempotency-key': key },
          });
        const rotated = await rotate(form.apiKey);
        expect(rotated.status).toBe(200);
        const newFormKey = rotated.body.apiKey as string;
        expect(newFormKey).toMatch(/^fgk_/);

        // The new key repeating it is another key: never the old key's kept answer.
        const byNewKey = await rotate(newFormKey);
        expect(byNewKey.headers.get('idempotent-replayed')).toBeNull();
        // And the replaced key, still in its grace, does not learn the new key by replay.
        const byOldKey = await rotate(form.apiKey);
        expect(byOldKey.headers.get('idempotent-replayed')).toBeNull();
        expect(byOldKey.text).not.toContain(newFormKey);
      });
    });
  });

  it('documents the header and its answers on submit and every POST of /api/v1', async () => {
    const document = (await request(`${t.url}/docs-json`)).body as {
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: Array<{ name: string; in: string }>;
            responses: Record<string, { headers?: Record<string, unknown> }>;
          }
        >
      >;
    };
    const posts = Object.entries(document.paths).flatMap(([path, item]) =>
      item.post ? [[path, item.post] as const] : [],
    );
    const covered = posts.filter(
      ([path]) =>
        path.startsWith('/api/v1/') || path === '/api/submit/{formId}',
    );
    expect(covered.length).toBeGreaterThanOrEqual(8);
    for (const [path, operation] of covered) {
      expect(
        operation.parameters?.some(
          (p) => p.name === 'Idempotency-Key' && p.in === 'header',
        ),
        path,
      ).toBe(true);
      expect(operation.responses['409'], path).toBeDefined();
      expect(operation.responses['422'], path).toBeDefined();
      const success = Object.entries(operation.responses).find(([status]) =>
        status.startsWith('2'),
      );
      expect(success?.[1].headers?.['Idempotent-Replayed'], path).toBeDefined();
    }
  });
});

describe('Idempotency-Key across two instances (e2e)', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let formId: string;

  beforeAll(async () => {
    database = await createTestDatabase({ shared: true });
    a = await createTestApp({ database, env: ENV });
    b = await createTestApp({ database, env: ENV });
    const { account } = await createAccount(a);
    formId = (await createForm(a, account.id)).form.id;
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await database?.drop();
  });

  const submit = (app: TestApp, key: string) =>
    request(`${app.url}/api/submit/${formId}`, {
      json: BODY,
      headers: { 'idempotency-key': key },
    });

  it('stores one row when both take the key at once: the later commit is a replay', async () => {
    const key = newKey();
    const held = gate();
    let waiting = false;
    // B has looked the key up (free) and waits to commit while A commits.
    const undo = hookCommit(b, async (original, item) => {
      waiting = true;
      await held.wait;
      return original(item);
    });
    try {
      const onB = submit(b, key);
      await until(() => waiting);
      const onA = await submit(a, key);
      expect(onA.status).toBe(200);
      expect(onA.headers.get('idempotent-replayed')).toBeNull();
      held.open();
      const late = await onB;
      expect(late.status).toBe(200);
      expect(late.body).toEqual(RECEIVED);
      expect(late.headers.get('idempotent-replayed')).toBe('true');
    } finally {
      undo();
    }
    expect(
      await a.dataSource.getRepository(Submission).countBy({ formId }),
    ).toBe(1);
    const onB = await submit(b, key);
    expect(onB.headers.get('idempotent-replayed')).toBe('true');
  });
});

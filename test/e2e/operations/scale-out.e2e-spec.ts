// Three instances, one service. Three processes of the built server share one MySQL/MariaDB
// database and one Redis behind nginx (the distribution's package) on loopback, and share their
// state: one submit rate budget, form changes and key regenerations seen by every instance
// within a second, dashboard sessions and sign-in limits valid everywhere, ALTCHA solutions
// accepted once across the three. (Deliveries shared
// by the instances' workers, and an instance killed under load: scale-out-load.e2e-spec.ts.)
//
// How each request travels is said at each step: "through the proxy" (nginx picks the
// instance; its X-Upstream header names it), or "at instance a/b/c" (straight to that
// instance's port, bypassing the proxy). Each client is a loopback address of its own
// (127.0.0.0/8 all reaches this machine): the proxy sees it as the connection's address and
// tells the instances in X-Forwarded-For, which they trust from the proxy alone.
import { Redis } from 'ioredis';
import { TEST_PASSWORD } from '../../factories/accounts.js';
import { CLIENT_FAILURES } from '../../../src/dashboard/session/sign-in-limiter.js';
import { newClient, submit, within } from '../../support/cluster-clients.js';
import {
  describeCluster,
  FIELDS,
  RATE_LIMIT,
  TEST_TIMEOUT_MS,
  useCluster,
  VALID,
} from '../../support/cluster-fixture.js';
import {
  csrfOf,
  DashboardClient,
  textOf,
} from '../../support/dashboard-client.js';
import { fetchFrom } from '../../support/loopback-client.js';
import { request } from '../../support/http.js';
import { solve } from '../../support/altcha.js';
import type { AltchaChallenge } from '../../../src/spam/altcha-payload.js';

/** "Within a second": how long a change may take to reach every instance. */
const PROPAGATION_MS = 1000;

describeCluster(
  'three instances behind a reverse proxy share their state (e2e, server processes)',
  () => {
    const t = useCluster();

    it(
      'keeps one submit rate budget per client through the proxy, whichever instance answers',
      async () => {
        const form = await t.createForm('Budget');
        const client = newClient();
        const answeredBy = new Set<string>();
        // Through the proxy, one request at a time: round robin spreads them over a, b and c, and
        // the remaining budget counts down across instances as one.
        for (let i = 0; i < RATE_LIMIT; i++) {
          const res = await submit(t.proxy, form.id, client, {
            ...VALID,
            n: String(i),
          });
          expect(res.status).toBe(200);
          expect(res.body).toEqual({
            success: true,
            message: 'Submission received',
          });
          expect(res.headers.get('x-ratelimit-limit')).toBe(String(RATE_LIMIT));
          expect(res.headers.get('x-ratelimit-remaining')).toBe(
            String(RATE_LIMIT - 1 - i),
          );
          answeredBy.add(t.cluster.answeredBy(res)!.name);
        }
        expect([...answeredBy].sort()).toEqual(['a', 'b', 'c']);
        // The budget is spent: through the proxy, and at each instance directly.
        const refused = await submit(t.proxy, form.id, client, VALID);
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(Object.keys(refused.body as object)).toEqual(['error']);
        for (const instance of t.cluster.instances) {
          const direct = await submit(instance.url, form.id, client, VALID);
          expect(direct.status, `at instance ${instance.name}`).toBe(429);
        }
        // A client cannot pass for another through the proxy: X-Forwarded-For is the proxy's to set.
        const other = newClient();
        const forged = await submit(
          t.proxy,
          form.id,
          other,
          { ...VALID, n: 'forged' },
          { 'x-forwarded-for': client },
        );
        expect(forged.status).toBe(200);
        expect(forged.headers.get('x-ratelimit-remaining')).toBe(
          String(RATE_LIMIT - 1),
        );
        const stored = await t.storedSubmissions(form.id);
        expect(stored).toHaveLength(RATE_LIMIT + 1);
        expect(stored.filter((row) => row.ip === client)).toHaveLength(
          RATE_LIMIT,
        );
        expect(stored.find((row) => row.data.n === 'forged')?.ip).toBe(other);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'has every instance enforce a form change and a deletion within a second',
      async () => {
        const form = await t.createForm('Changing');
        // At each instance directly: the form is accepted, and so held in that instance's cache.
        for (const instance of t.cluster.instances) {
          expect(
            (await submit(instance.url, form.id, newClient(), VALID)).status,
          ).toBe(200);
        }
        // Changed at instance a: a new required field.
        const fields = [
          ...FIELDS,
          { id: 'phone', type: 'tel', required: true },
        ];
        const changed = await t.api(
          t.cluster.instances[0].url,
          `/forms/${form.id}`,
          t.owner.apiKey,
          { method: 'PATCH', json: { fields } },
        );
        expect(changed.status).toBe(200);
        const changedAt = performance.now();
        await Promise.all(
          t.cluster.instances.map((instance) =>
            within(
              changedAt,
              PROPAGATION_MS,
              `the change at instance ${instance.name}`,
              async () => {
                const res = await submit(
                  instance.url,
                  form.id,
                  newClient(),
                  VALID,
                );
                if (res.status === 200) return false;
                expect(res.status).toBe(400);
                expect(res.body).toEqual({
                  error: 'Validation failed',
                  errors: ['phone is required'],
                });
                return true;
              },
            ),
          ),
        );
        for (const instance of t.cluster.instances) {
          const res = await submit(instance.url, form.id, newClient(), {
            ...VALID,
            phone: '+44 20 7946 0000',
          });
          expect(res.status, `at instance ${instance.name}`).toBe(200);
        }
        // Deleted at instance b.
        const deleted = await t.api(
          t.cluster.instances[1].url,
          `/forms/${form.id}`,
          t.owner.apiKey,
          { method: 'DELETE' },
        );
        expect(deleted.status).toBe(204);
        const deletedAt = performance.now();
        await Promise.all(
          t.cluster.instances.map((instance) =>
            within(
              deletedAt,
              PROPAGATION_MS,
              `the deletion at instance ${instance.name}`,
              async () => {
                const res = await submit(instance.url, form.id, newClient(), {
                  ...VALID,
                  phone: '+44 20 7946 0000',
                });
                if (res.status === 200) return false;
                expect(res.status).toBe(404);
                expect(res.body).toEqual({ error: 'Form not found' });
                return true;
              },
            ),
          ),
        );
        expect(await t.storedSubmissions(form.id)).toEqual([]);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'has every instance refuse a regenerated key within a second',
      async () => {
        const form = await t.createForm('Keyed');
        for (const instance of t.cluster.instances) {
          const res = await t.api(
            instance.url,
            `/forms/${form.id}`,
            form.apiKey,
          );
          expect(res.status, `at instance ${instance.name}`).toBe(200);
        }
        // Regenerated at instance c.
        const regenerated = await t.api(
          t.cluster.instances[2].url,
          `/forms/${form.id}/api-key`,
          form.apiKey,
          { method: 'POST' },
        );
        expect(regenerated.status).toBe(200);
        const newKey = (regenerated.body as { apiKey: string }).apiKey;
        expect(newKey).not.toBe(form.apiKey);
        const regeneratedAt = performance.now();
        await Promise.all(
          t.cluster.instances.map((instance) =>
            within(
              regeneratedAt,
              PROPAGATION_MS,
              `the old key refused at instance ${instance.name}`,
              async () => {
                const res = await t.api(
                  instance.url,
                  `/forms/${form.id}`,
                  form.apiKey,
                );
                if (res.status === 200) return false;
                expect(res.status).toBe(403);
                expect(res.body).toEqual({ error: 'Invalid API key' });
                return true;
              },
            ),
          ),
        );
        for (const instance of t.cluster.instances) {
          const res = await t.api(instance.url, `/forms/${form.id}`, newKey);
          expect(res.status, `at instance ${instance.name}`).toBe(200);
          expect(res.body.apiKeyPrefix).toBe(
            newKey.slice(0, res.body.apiKeyPrefix.length),
          );
        }
      },
      TEST_TIMEOUT_MS,
    );

    async function sessionCount(): Promise<number> {
      const [rows] = await t.cluster.db.query(
        'SELECT COUNT(*) AS n FROM dashboard_session WHERE accountId = ?',
        [t.owner.accountId],
      );
      return Number((rows as Array<{ n: number }>)[0].n);
    }

    it(
      'keeps a dashboard session valid on every instance, and ends it on every instance',
      async () => {
        await t.createForm('Dashboard <b>form</b>');
        const transport = fetchFrom(newClient());
        const [a, b, c] = t.cluster.instances.map(
          (instance) => new DashboardClient(instance.url, transport),
        );
        // One browser talking to several instances: the same cookies at each.
        const share = (from: DashboardClient, to: DashboardClient) => {
          if (from === to) return;
          to.cookies.clear();
          for (const [name, value] of from.cookies) to.cookies.set(name, value);
        };
        // The log-in page from instance a, the log-in itself at instance b.
        const loginPage = await a.get('/dashboard/login');
        expect(loginPage.status).toBe(200);
        share(a, b);
        const loggedIn = await b.post(
          '/dashboard/login',
          { email: t.owner.email, password: TEST_PASSWORD },
          { csrf: csrfOf(loginPage.html) },
        );
        expect(loggedIn.status).toBe(303);
        expect(loggedIn.location).toBe('/dashboard/forms');
        expect(await sessionCount()).toBe(1);
        // The session opens the forms page at every instance.
        for (const client of [a, b, c]) {
          share(b, client);
          const page = await client.get('/dashboard/forms');
          expect(page.status, client.baseUrl).toBe(200);
          expect(page.html).toContain('Dashboard &lt;b&gt;form&lt;/b&gt;');
          expect(textOf(page.html)).toContain(t.owner.email);
        }
        // A signed-in post: the page (and its CSRF token) from instance c, the log-out at instance a.
        const formsPage = await c.get('/dashboard/forms');
        const loggedOut = await a.post(
          '/dashboard/logout',
          {},
          { csrf: csrfOf(formsPage.html) },
        );
        expect(loggedOut.status).toBe(303);
        expect(loggedOut.location).toBe('/dashboard/login?done=signed-out');
        expect(await sessionCount()).toBe(0);
        // The same cookie is refused at every instance now.
        for (const client of [b, c, a]) {
          share(c, client);
          const page = await client.get('/dashboard/forms');
          expect(page.status, client.baseUrl).toBe(303);
          expect(page.location).toBe('/dashboard/login');
        }
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'shares sign-in limits: failed log-ins at any instance block the client at every one',
      async () => {
        const client = newClient();
        const transport = fetchFrom(client);
        const logIn = (base: string, email: string, password: string) =>
          new DashboardClient(base, transport).post('/dashboard/login', {
            email,
            password,
          });
        // At instances a, b, c, a, …: each failure for a new email (no per-email delay applies).
        for (let i = 0; i < CLIENT_FAILURES; i++) {
          const instance = t.cluster.instances[i % 3];
          const res = await logIn(
            instance.url,
            `nobody-${i}-${Date.now()}@example.com`,
            'wrong-password-1',
          );
          expect(res.status, `failure ${i + 1} at ${instance.name}`).toBe(401);
        }
        // Now refused at every instance directly and through the proxy, the right password too.
        for (const base of [
          ...t.cluster.instances.map((i) => i.url),
          t.proxy,
        ]) {
          const res = await logIn(base, t.owner.email, TEST_PASSWORD);
          expect(res.status, base).toBe(429);
          expect(res.headers.get('content-type')).toMatch(/^text\/html/);
          expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(800);
          expect(textOf(res.html)).toMatch(
            /Too many attempts\. Please wait 15 minutes/,
          );
        }
        // Another client is not affected.
        const other = await new DashboardClient(
          t.cluster.instances[2].url,
          fetchFrom(newClient()),
        ).logIn(t.owner.email);
        expect(other.status).toBe(303);
        // The count lives in the shared Redis, under this cluster's key prefix.
        const redis = new Redis(process.env.TEST_REDIS_URL!);
        try {
          const keys = await redis.keys(
            `${t.cluster.redisKeyPrefix}*login:${client}`,
          );
          expect(keys).toHaveLength(1);
          expect(await redis.pttl(keys[0])).toBeGreaterThan(0);
        } finally {
          redis.disconnect();
        }
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'shares ALTCHA: a challenge from one instance is good at another, and each solution is accepted once across all three',
      async () => {
        const form = await t.createForm('Proof of work');
        const patched = await t.api(
          t.proxy,
          `/forms/${form.id}`,
          t.owner.apiKey,
          // Without a grace: a post without a solution is refused at once.
          {
            method: 'PATCH',
            json: { captcha: { provider: 'altcha', graceUntil: null } },
          },
        );
        expect(patched.status).toBe(200);
        const [a, b, c] = t.cluster.instances;
        const challengeAt = async (base: string) => {
          const res = await fetchFrom(newClient())(
            `${base}/api/submit/${form.id}/challenge`,
          );
          expect(res.status).toBe(200);
          return (await res.json()) as AltchaChallenge;
        };
        // The change, made through the proxy, reaches every instance within a second.
        await within(performance.now(), PROPAGATION_MS, 'captcha', async () =>
          (
            await Promise.all(
              [b, c].map((i) => submit(i.url, form.id, newClient(), VALID)),
            )
          ).every((res) => res.status === 400),
        );
        // Made at a, solved, accepted at b; then refused at c, at a and through the proxy.
        const altcha = await solve(await challengeAt(a.url));
        const first = await submit(b.url, form.id, newClient(), {
          ...VALID,
          altcha,
        });
        expect(first.status).toBe(200);
        for (const base of [c.url, a.url, t.proxy]) {
          const replay = await submit(base, form.id, newClient(), {
            ...VALID,
            altcha,
          });
          expect(replay.status, base).toBe(400);
          expect(replay.body.errors).toEqual([
            'captcha: this ALTCHA solution was already used: solve a new one',
          ]);
        }
        // One solution sent to the three instances at the same moment: one is accepted.
        for (let round = 0; round < 3; round += 1) {
          const same = await solve(await challengeAt(t.proxy));
          const answers = await Promise.all(
            [a, b, c].map((i) =>
              submit(i.url, form.id, newClient(), { ...VALID, altcha: same }),
            ),
          );
          expect(
            answers.map((res) => res.status).sort((x, y) => x - y),
            `round ${round}`,
          ).toEqual([200, 400, 400]);
        }
        // Four accepted in all, whichever instance took them.
        expect(await t.storedSubmissions(form.id)).toHaveLength(4);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'shares Idempotency-Key records between instances: a retry anywhere is a replay, one row',
      async () => {
        const form = await t.createForm('Idempotent');
        const key = `retry-${Date.now()}`;
        const data = { ...VALID, n: 'once' };
        // At instance a first; the retries at b and c get a's kept answer.
        const first = await submit(
          t.cluster.instances[0].url,
          form.id,
          newClient(),
          data,
          { 'idempotency-key': key },
        );
        expect(first.status).toBe(200);
        expect(first.headers.get('idempotent-replayed')).toBeNull();
        for (const instance of t.cluster.instances.slice(1)) {
          const retry = await submit(instance.url, form.id, newClient(), data, {
            'idempotency-key': key,
          });
          expect(retry.status, `at instance ${instance.name}`).toBe(200);
          expect(retry.body).toEqual(first.body);
          expect(retry.headers.get('idempotent-replayed')).toBe('true');
        }
        const changed = await submit(
          t.cluster.instances[2].url,
          form.id,
          newClient(),
          { ...data, n: 'changed' },
          { 'idempotency-key': key },
        );
        expect(changed.status).toBe(422);
        // One key sent to all three at once: one row, whichever commits first.
        const racing = `race-${Date.now()}`;
        const answers = await Promise.all(
          t.cluster.instances.map((instance) =>
            submit(
              instance.url,
              form.id,
              newClient(),
              { ...data, n: 'race' },
              {
                'idempotency-key': racing,
              },
            ),
          ),
        );
        for (const answer of answers) {
          expect([200, 409]).toContain(answer.status);
        }
        const stored = await t.storedSubmissions(form.id);
        expect(stored.filter((row) => row.data.n === 'once')).toHaveLength(1);
        expect(stored.filter((row) => row.data.n === 'race')).toHaveLength(1);
        // The management API: a form created at a is not created again at b.
        const create = (base: string) =>
          request(`${base}/api/v1/forms`, {
            apiKey: t.owner.apiKey,
            json: { name: 'Created once', fields: FIELDS },
            headers: { 'idempotency-key': key },
          });
        const created = await create(t.cluster.instances[0].url);
        expect(created.status).toBe(201);
        const again = await create(t.cluster.instances[1].url);
        expect(again.status).toBe(201);
        expect(again.headers.get('idempotent-replayed')).toBe('true');
        expect(again.body).toEqual(created.body);
        const list = await t.api(t.proxy, '/forms', t.owner.apiKey);
        expect(
          (list.body.data as Array<{ name: string }>).filter(
            (f) => f.name === 'Created once',
          ),
        ).toHaveLength(1);
      },
      TEST_TIMEOUT_MS,
    );
  },
);

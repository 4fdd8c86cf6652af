// What the metrics say of the services Formgate depends on (docs/operations.md): the
// database going away (through a proxy the test cuts) turns formgate_database_up to 0 and
// the submissions it refuses count as unavailable; a hung database does not hold a scrape
// past its deadline; Redis, only when REDIS_URL is set, gets formgate_redis_up.
import { createAccount } from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import { request } from '../../support/http.js';
import { METRICS_ENV, scrape } from '../../support/metrics.js';
import { waitFor } from '../../support/server-process.js';
import {
  describeWhen,
  NEEDS_REDIS,
  TEST_REDIS_URL,
} from '../../support/skips.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';
import {
  createTestDatabase,
  NEEDS_MYSQL,
  type TestDatabase,
  usingMysql,
} from '../../support/test-database.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const SUBMIT_ROUTE = '/api/submit/:formId';

describeWhen(usingMysql(), NEEDS_MYSQL)(
  'database metrics (e2e, MySQL/MariaDB)',
  () => {
    let database: TestDatabase;
    let proxy: TcpProxy;
    let t: TestApp;

    beforeAll(async () => {
      database = await createTestDatabase();
      const real = new URL(database.url);
      proxy = await startTcpProxy(real.hostname, Number(real.port || 3306));
      const viaProxy = new URL(database.url);
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);
      t = await createTestApp({
        database: { url: viaProxy.toString(), drop: async () => {} },
        env: { ...METRICS_ENV, SUBMIT_RATE_LIMIT: '1000' },
      });
    });
    afterAll(async () => {
      await proxy.up().catch(() => {});
      await t.close();
      await proxy.close();
      await database.drop();
    });

    it('reports the database down while it is away, and the submissions it refused', async () => {
      const { account } = await createAccount(t);
      const { form } = await createForm(t, account.id);
      const submit = () =>
        request(`${t.url}/api/submit/${form.id}`, {
          json: { name: 'Ada', email: 'ada@example.com' },
        });
      // The form's configuration is cached: the outage meets the commit queue.
      expect((await submit()).status).toBe(200);
      const before = await scrape(t);
      expect(before.value('formgate_database_up')).toBe(1);
      const unavailable = (s: typeof before) =>
        s.value('formgate_submissions_total', {
          route: SUBMIT_ROUTE,
          outcome: 'unavailable',
        });

      await proxy.down();
      const refused = await submit();
      expect(refused.status).toBe(503);
      const during = await scrape(t);
      expect(during.value('formgate_database_up')).toBe(0);
      expect(unavailable(during) - unavailable(before)).toBe(1);
      // Unknown rather than stale: no backlog is reported while it cannot be read.
      expect(
        during.has('formgate_delivery_backlog', { channel: 'webhook' }),
      ).toBe(false);

      await proxy.up();
      await waitFor(
        async () => (await scrape(t)).value('formgate_database_up') === 1,
        15_000,
        'formgate_database_up back to 1',
      );
    });

    it('answers a scrape within its deadline while the database hangs', async () => {
      proxy.hang();
      const started = Date.now();
      const during = await scrape(t);
      expect(Date.now() - started).toBeLessThan(4000);
      expect(during.value('formgate_database_up')).toBe(0);
      await proxy.up();
      await waitFor(
        async () => (await scrape(t)).value('formgate_database_up') === 1,
        15_000,
        'formgate_database_up back to 1',
      );
    });
  },
);

describeWhen(Boolean(TEST_REDIS_URL), NEEDS_REDIS)(
  'Redis metrics (e2e)',
  () => {
    let proxy: TcpProxy;
    let t: TestApp;

    beforeAll(async () => {
      const real = new URL(TEST_REDIS_URL!);
      proxy = await startTcpProxy(real.hostname, Number(real.port || 6379));
      const viaProxy = new URL(TEST_REDIS_URL!);
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);
      t = await createTestApp({
        env: { ...METRICS_ENV, REDIS_URL: viaProxy.toString() },
      });
    });
    afterAll(async () => {
      await proxy.up().catch(() => {});
      await t.close();
      await proxy.close();
    });

    it('reports Redis up, down while it is away, and up again', async () => {
      expect((await scrape(t)).value('formgate_redis_up')).toBe(1);
      await proxy.down();
      expect((await scrape(t)).value('formgate_redis_up')).toBe(0);
      await proxy.up();
      await waitFor(
        async () => (await scrape(t)).value('formgate_redis_up') === 1,
        15_000,
        'formgate_redis_up back to 1',
      );
    });
  },
);

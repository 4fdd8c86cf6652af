// The database is a dependency that fails: while it is away requests answer
// 503 with Retry-After within the deadline, /health/live stays 200, and service resumes by
// itself when it returns. Runs against MySQL/MariaDB (TEST_DATABASE_URL) through a proxy
// the test cuts and restores.
import { Submission } from '../../../src/submissions/submission.entity.js';
import { CommitQueue } from '../../../src/submit/commit/commit-queue.js';
import { MYSQL_PARALLEL_BATCHES } from '../../../src/submit/commit/mysql-submission-writer.js';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import { request } from '../../support/http.js';
import { waitFor } from '../../support/server-process.js';
import { describeWhen } from '../../support/skips.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';
import {
  createTestDatabase,
  NEEDS_MYSQL,
  type TestDatabase,
  usingMysql,
} from '../../support/test-database.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

describeWhen(usingMysql(), NEEDS_MYSQL)(
  'database outage (e2e, MySQL/MariaDB)',
  () => {
    let database: TestDatabase;
    let proxy: TcpProxy;
    let t: TestApp;
    let owner: TestAccount;

    beforeAll(async () => {
      database = await createTestDatabase();
      const real = new URL(database.url);
      proxy = await startTcpProxy(real.hostname, Number(real.port || 3306));
      const viaProxy = new URL(database.url);
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);
      t = await createTestApp({
        database: { url: viaProxy.toString(), drop: async () => {} },
        env: { SUBMIT_RATE_LIMIT: '1000', SUBMIT_QUEUE_LIMIT: '3' },
      });
      owner = await createAccount(t);
    });

    afterAll(async () => {
      await proxy.up().catch(() => {});
      await t.close();
      await proxy.close();
      await database.drop();
    });

    it('answers 503 with Retry-After while the database is away, then recovers', async () => {
      expect(
        (await request(`${t.url}/api/v1/forms`, { apiKey: owner.apiKey }))
          .status,
      ).toBe(200);

      await proxy.down();
      const started = Date.now();
      const during = await request(`${t.url}/api/v1/forms`, {
        apiKey: owner.apiKey,
      });
      expect(Date.now() - started).toBeLessThan(6000);
      expect(during.status).toBe(503);
      expect(during.headers.get('retry-after')).toBe('5');
      expect(Object.keys(during.body)).toEqual(['error']);

      const ready = await request(`${t.url}/health/ready`);
      expect(ready.status).toBe(503);
      expect(ready.headers.get('retry-after')).toBe('5');
      expect((await request(`${t.url}/health/live`)).status).toBe(200);

      await proxy.up();
      await waitFor(
        async () => (await request(`${t.url}/health/ready`)).status === 200,
        15_000,
        'readiness after the database returned',
      );
      const after = await request(`${t.url}/api/v1/forms`, {
        apiKey: owner.apiKey,
      });
      expect(after.status).toBe(200);
      expect(after.body.data).toEqual([]);
    });

    it('answers submissions 503 within the deadline while the database hangs, refuses at once past the queue limit, and stores again after', async () => {
      const { form } = await createForm(t, owner.account.id, { fields: [] });
      const submit = (n: number) =>
        request(`${t.url}/api/submit/${form.id}`, { json: { n: String(n) } });
      // The form's configuration is cached: the outage meets the commit queue.
      expect((await submit(0)).status).toBe(200);

      proxy.hang();
      const queue = t.app.get(CommitQueue);
      const started = Date.now();
      // Each submission sent alone starts a batch, until as many hang as are written at once.
      const first: Array<ReturnType<typeof submit>> = [];
      for (let n = 1; n <= MYSQL_PARALLEL_BATCHES; n += 1) {
        first.push(submit(n));
        await waitFor(
          async () => queue.batchesInProgress === n,
          5000,
          `${n} batches in progress`,
        );
      }
      const waiting = [11, 12, 13].map(submit);
      await waitFor(async () => queue.length === 3, 5000, 'a full queue');
      const refused = await submit(99);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.headers.get('access-control-allow-origin')).toBe('*');
      expect(refused.body).toEqual({
        error:
          'Too many submissions are waiting to be stored: retry in a second',
      });
      for (const res of await Promise.all([...first, ...waiting])) {
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('5');
        expect(Object.keys(res.body)).toEqual(['error']);
      }
      expect(Date.now() - started).toBeLessThan(6500);

      await proxy.up();
      await waitFor(
        async () => (await submit(6)).status === 200,
        15_000,
        'submissions accepted again',
      );
      const stored = await t.dataSource
        .getRepository(Submission)
        .find({ where: { formId: form.id } });
      const numbers = stored.map((row) => row.data.n);
      expect(numbers).toContain('0');
      expect(numbers).toContain('6');
      expect(numbers).not.toContain('99');
    });
  },
);

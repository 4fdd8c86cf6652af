// Prometheus metrics on their own listener (docs/operations.md): every outcome of a post to
// the submit routes moves its counter by exactly what the test did, the series stay as many
// however many forms and unknown ids are posted to, the public port has no /metrics, and
// `promtool check metrics` accepts a scrape taken after the workload.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { SweepsService } from '../../../src/sweeps/sweeps.service.js';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import { request } from '../../support/http.js';
import { METRICS_ENV, metricsUrl, scrape } from '../../support/metrics.js';
import { describeWhen } from '../../support/skips.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const PERSON = { name: 'Ada', email: 'ada@example.com' };
const SUBMIT_ROUTE = '/api/submit/:formId';
const FORMSPREE_ROUTE = '/f/:formId';

const promtool = spawnSync('promtool', ['--version']).status === 0;
/** CI installs promtool (.ci/run): there its absence fails instead of skipping. */
const describeWithPromtool = describeWhen(
  promtool || process.env.CI === 'true',
  'needs promtool: apt-get install prometheus',
);

const OPERATIONS = readFileSync('docs/operations.md', 'utf8');
const DASHBOARD = readFileSync('docs/grafana-dashboard.json', 'utf8');
/** The YAML blocks of docs/operations.md's metrics section: the scrape job and the alerts. */
const [SCRAPE_JOB, ALERTS] = [
  ...OPERATIONS.slice(OPERATIONS.indexOf('## Metrics and traces')).matchAll(
    /```yaml\n([\s\S]*?)```/g,
  ),
].map((m) => m[1]);

/** The series names a text uses (queries in the docs and the dashboard). */
function seriesNamesIn(text: string): string[] {
  return [
    ...new Set(text.match(/\b(?:formgate|nodejs|process)_[a-z0-9_]+/g) ?? []),
  ];
}

describe('metrics (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let formId: string;
  let guardedId: string;
  /** Each test posts from addresses of its own, so the rate limit counts only its posts. */
  let client = 0;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        ...METRICS_ENV,
        SUBMIT_RATE_LIMIT: '3',
        TRUST_PROXY: '1',
        // The sweeps run when the test says, never on their schedule in between.
        SWEEP_INTERVAL_SECONDS: '0',
      },
    });
    owner = await createAccount(t);
    formId = (await createForm(t, owner.account.id)).form.id;
    guardedId = (
      await createForm(t, owner.account.id, { domainVerification: true })
    ).form.id;
  });
  afterAll(async () => {
    await t.close();
  });

  const submit = (
    id: string,
    body: Record<string, unknown>,
    options: { route?: string; headers?: Record<string, string> } = {},
  ) => {
    client += 1;
    return request(`${t.url}${options.route ?? '/api/submit'}/${id}`, {
      json: body,
      headers: {
        'x-forwarded-for': `198.51.100.${client}`,
        ...options.headers,
      },
    });
  };
  const submissions = async (route = SUBMIT_ROUTE) => {
    const s = await scrape(t);
    return (outcome: string) =>
      s.value('formgate_submissions_total', { route, outcome });
  };
  const stored = () => t.dataSource.getRepository(Submission).count();

  it('serves the metrics on their own port, and the public port has no /metrics', async () => {
    const url = await metricsUrl(t);
    expect(new URL(url).port).not.toBe(new URL(t.url).port);
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe(
      'text/plain; version=0.0.4; charset=utf-8',
    );
    const text = await served.text();
    expect(text).toContain('# TYPE formgate_submissions_total counter');
    // Node's process metrics are there for the long-running checks.
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(text).toContain('nodejs_heap_size_used_bytes');
    // Without REDIS_URL there is no Redis to be up.
    expect(text).not.toContain('formgate_redis_up');

    const elsewhere = await fetch(url.replace('/metrics', '/other'));
    expect(elsewhere.status).toBe(404);
    const posted = await fetch(url, { method: 'POST' });
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET, HEAD');

    const publicPort = await request(`${t.url}/metrics`);
    expect(publicPort.status).toBe(404);
    expect(Object.keys(publicPort.body)).toEqual(['error']);
  });

  it('counts every outcome of a post by exactly what was posted', async () => {
    const before = await submissions();
    const storedBefore = await stored();

    expect((await submit(formId, PERSON)).status).toBe(200);
    expect((await submit(formId, PERSON)).status).toBe(200);
    // Spam and the honeypot answer like a success: only the counter tells them apart.
    const links = Array.from({ length: 6 }, (_, i) => `https://l${i}.example`);
    const spam = await submit(formId, { ...PERSON, message: links.join(' ') });
    expect(spam.status).toBe(200);
    const trapped = await submit(formId, { ...PERSON, _honeypot: 'bot' });
    expect(trapped.status).toBe(200);
    expect((await submit(formId, { name: 'Ada' })).status).toBe(400);
    const unsupported = await request(`${t.url}/api/submit/${formId}`, {
      body: 'hello',
      headers: {
        'content-type': 'text/plain',
        'x-forwarded-for': '203.0.113.9',
      },
    });
    expect(unsupported.status).toBe(415);
    const forbidden = await submit(guardedId, PERSON, {
      headers: { origin: 'https://elsewhere.example' },
    });
    expect(forbidden.status).toBe(403);
    expect((await submit('no-such-form', PERSON)).status).toBe(404);
    // One address, limit 3: three answered, two refused.
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await request(`${t.url}/api/submit/no-such-form`, {
        json: PERSON,
        headers: { 'x-forwarded-for': '203.0.113.77' },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([404, 404, 404, 429, 429]);

    const after = await submissions();
    const moved = (outcome: string) => after(outcome) - before(outcome);
    expect({
      accepted: moved('accepted'),
      spam: moved('spam'),
      honeypot: moved('honeypot'),
      invalid: moved('invalid'),
      forbidden: moved('forbidden'),
      not_found: moved('not_found'),
      rate_limited: moved('rate_limited'),
      unavailable: moved('unavailable'),
    }).toEqual({
      accepted: 2,
      spam: 1,
      honeypot: 1,
      invalid: 2,
      forbidden: 1,
      not_found: 4,
      rate_limited: 2,
      unavailable: 0,
    });
    // What the counters say matches what was stored: two people and the spam.
    expect((await stored()) - storedBefore).toBe(3);
  });

  it('counts the Formspree-compatible route under its own pattern', async () => {
    const before = await submissions(FORMSPREE_ROUTE);
    const res = await submit(formId, PERSON, { route: '/f' });
    expect(res.status).toBe(200);
    const trapped = await submit(
      formId,
      { ...PERSON, _gotcha: 'bot' },
      { route: '/f' },
    );
    expect(trapped.status).toBe(200);
    const after = await submissions(FORMSPREE_ROUTE);
    expect(after('accepted') - before('accepted')).toBe(1);
    expect(after('honeypot') - before('honeypot')).toBe(1);
  });

  it('times requests by route pattern, method and status class', async () => {
    const before = await scrape(t);
    const read = await request(`${t.url}/api/v1/forms/${formId}`, {
      apiKey: owner.apiKey,
    });
    expect(read.status).toBe(200);
    expect((await request(`${t.url}/no/such/page`)).status).toBe(404);
    const after = await scrape(t);
    const count = (labels: Record<string, string>) =>
      after.value('formgate_http_request_duration_seconds_count', labels) -
      before.value('formgate_http_request_duration_seconds_count', labels);
    expect(
      count({
        route: '/api/v1/forms/:id',
        method: 'GET',
        status_class: '2xx',
      }),
    ).toBe(1);
    expect(
      count({ route: 'unmatched', method: 'GET', status_class: '4xx' }),
    ).toBe(1);
    // No series names a form id or a path.
    expect(after.text).not.toContain(formId);
    expect(after.text).not.toContain('/no/such/page');
  });

  it('keeps the number of series fixed whatever the number of forms and ids', async () => {
    const forms = await Promise.all(
      Array.from({ length: 50 }, () => createForm(t, owner.account.id)),
    );
    const families = [
      'formgate_submissions_total',
      'formgate_http_request_duration_seconds',
    ];
    const seriesNow = async () => {
      const s = await scrape(t);
      return families.flatMap((name) => s.seriesOf(name)).sort();
    };
    // One of each first, so every series this workload uses exists.
    expect((await submit(forms[0].form.id, PERSON)).status).toBe(200);
    expect((await submit('unknown-0', PERSON)).status).toBe(404);
    const reads = (id: string) =>
      request(`${t.url}/api/v1/forms/${id}`, { apiKey: owner.apiKey });
    expect((await reads(forms[0].form.id)).status).toBe(200);
    const first = await seriesNow();

    for (let i = 1; i < 50; i += 1) {
      expect((await submit(forms[i].form.id, PERSON)).status).toBe(200);
      expect((await submit(`unknown-${i}`, PERSON)).status).toBe(404);
      expect((await reads(forms[i].form.id)).status).toBe(200);
    }
    expect(await seriesNow()).toEqual(first);
  });

  it('counts the runs of every sweep', async () => {
    const sweeps = t.app.get(SweepsService);
    const before = await scrape(t);
    await sweeps.runAll();
    const after = await scrape(t);
    expect(sweeps.names.length).toBeGreaterThan(0);
    for (const sweep of sweeps.names) {
      const labels = { sweep, outcome: 'succeeded' };
      expect(
        after.value('formgate_sweep_runs_total', labels) -
          before.value('formgate_sweep_runs_total', labels),
      ).toBe(1);
    }
  });

  it('reports the database up, and the commit queue empty at rest', async () => {
    const s = await scrape(t);
    expect(s.value('formgate_database_up')).toBe(1);
    expect(s.value('formgate_commit_queue_depth')).toBe(0);
    expect(s.value('formgate_commit_batch_size_count')).toBeGreaterThan(0);
    expect(s.has('formgate_delivery_backlog', { channel: 'webhook' })).toBe(
      true,
    );
  });

  it('is what the docs and the Grafana dashboard query: every series they name is served', async () => {
    const served = await scrape(t);
    const named = seriesNamesIn(`${ALERTS}\n${DASHBOARD}`);
    expect(named.length).toBeGreaterThan(10);
    // Served only with REDIS_URL (metrics-dependencies.e2e-spec.ts).
    const missing = named.filter(
      (name) =>
        name !== 'formgate_redis_up' &&
        served.seriesOf(name.replace(/_(bucket|sum|count)$/, '')).length === 0,
    );
    expect(missing).toEqual([]);
    const dashboard = JSON.parse(DASHBOARD) as { panels: unknown[] };
    expect(dashboard.panels.length).toBeGreaterThan(10);
  });

  describeWithPromtool('checked by promtool', () => {
    it(`passes promtool check metrics after the workload`, async () => {
      const { text } = await scrape(t);
      // Throws, with promtool's findings, on any problem.
      const output = execFileSync('promtool', ['check', 'metrics'], {
        input: text,
        encoding: 'utf8',
      });
      expect(output).toBe('');
    });

    it(`documents a scrape job and alert rules promtool accepts`, () => {
      const dir = mkdtempSync(join(tmpdir(), 'formgate-prometheus-'));
      try {
        writeFileSync(join(dir, 'alerts.yml'), ALERTS);
        writeFileSync(
          join(dir, 'prometheus.yml'),
          `${SCRAPE_JOB}rule_files: [alerts.yml]\n`,
        );
        const rules = execFileSync(
          'promtool',
          ['check', 'rules', join(dir, 'alerts.yml')],
          { encoding: 'utf8' },
        );
        expect(rules).toMatch(/SUCCESS: \d+ rules found/);
        const config = execFileSync(
          'promtool',
          ['check', 'config', join(dir, 'prometheus.yml')],
          { encoding: 'utf8' },
        );
        expect(config).toContain('SUCCESS');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});

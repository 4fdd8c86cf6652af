// The submit rate limit is decided before the body is read, and a multipart body is cut
// off after as many parts as a submission may have keys: a client over its limit costs the
// server about what a tiny request does, whatever it sends. Before, a 94 KB body of 1,700
// parts was parsed in full before its 429 (13.2 ms of CPU against 1.55 ms for a tiny JSON
// one), and one address over its limit slowed every other client down.
//
// The cost is the process's CPU time (client and server share this process) per request,
// measured over fixed numbers of sequential requests on one keep-alive connection, each
// kind in turns so that both see the same machine.
import { Agent, request as httpRequest } from 'node:http';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { tooManyPartsMessage } from '../../../src/submit/multipart-body.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

/** Rounds of each kind, and requests of one kind per round. */
const ROUNDS = 6;
const PER_ROUND = 40;
/**
 * Most a refused multipart request may cost, in tiny refused requests. Measured here:
 * 1.0–1.3 (before the fix, 23: 16 ms against 0.7 ms); the rest is headroom for a shared,
 * noisy machine.
 */
const MOST_TIMES_A_TINY_ONE = 3;

const BOUNDARY = 'B';
/** 1,700 parts in 94 KB, as in the finding. */
const MANY_PARTS = Buffer.from(
  Array.from(
    { length: 1700 },
    (_, i) =>
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="k${i}"\r\n\r\nv\r\n`,
  ).join('') + `--${BOUNDARY}--\r\n`,
);
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;
const TINY = Buffer.from('{}');

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function post(
  agent: Agent,
  url: string,
  body: Buffer,
  contentType: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': contentType,
          'content-length': String(body.length),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** CPU microseconds (user + system) of this process per request of `send`. */
async function cpuPerRequest(
  count: number,
  send: () => Promise<Answer>,
  expectStatus: number,
): Promise<number> {
  const started = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const answer = await send();
    expect(answer.status).toBe(expectStatus);
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / count;
}

describe('the cost of a refused submission (e2e)', () => {
  it('sends a body like the finding', () => {
    expect(MANY_PARTS.length).toBeGreaterThan(90_000);
    expect(MANY_PARTS.length).toBeLessThan(100_000);
  });

  let t: TestApp;
  let url: string;
  let agent: Agent;

  beforeAll(async () => {
    t = await createTestApp({
      // No request lines: the test measures the server's work, not the log's.
      env: { SUBMIT_RATE_LIMIT: '1', LOG_LEVEL: 'warn' },
    });
    const { account } = await createAccount(t);
    const { form } = await createForm(t, account.id);
    url = `${t.url}/api/submit/${form.id}`;
    agent = new Agent({ keepAlive: true, maxSockets: 1 });
    // The one submission of the window.
    const first = await post(
      agent,
      url,
      Buffer.from(JSON.stringify({ name: 'Ada', email: 'ada@example.com' })),
      'application/json',
    );
    expect(first.status).toBe(200);
  });
  afterAll(async () => {
    agent.destroy();
    await t.close();
  });

  it('refuses a client over its limit before reading its body, with the same headers as ever', async () => {
    const refused = await post(agent, url, MANY_PARTS, MULTIPART);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toEqual({
      error: expect.stringMatching(
        /^Too many submissions: at most 1 per 60 seconds from one address\. Retry in \d+ seconds\.$/,
      ),
    });
    const reset = Number(refused.headers['x-ratelimit-reset']);
    expect(refused.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'x-ratelimit-limit': '1',
      'x-ratelimit-remaining': '0',
      'ratelimit-policy': '"submit";q=1;w=60',
      ratelimit: `"submit";r=0;t=${reset}`,
      'retry-after': String(reset),
    });
    expect(reset).toBeGreaterThanOrEqual(1);
    expect(await t.dataSource.getRepository(Submission).count()).toBe(1);
  });

  it('costs about what a tiny refused request costs, however many parts it sends', async () => {
    const tiny = () => post(agent, url, TINY, 'application/json');
    const many = () => post(agent, url, MANY_PARTS, MULTIPART);
    // Warm both paths up (JIT, buffers) before measuring.
    await cpuPerRequest(PER_ROUND, tiny, 429);
    await cpuPerRequest(PER_ROUND, many, 429);
    let tinyCost = 0;
    let manyCost = 0;
    for (let round = 0; round < ROUNDS; round++) {
      tinyCost += await cpuPerRequest(PER_ROUND, tiny, 429);
      manyCost += await cpuPerRequest(PER_ROUND, many, 429);
    }
    const ratio = manyCost / tinyCost;
    console.info(
      `refused submission CPU per request: tiny ${(tinyCost / ROUNDS / 1000).toFixed(2)} ms, 1,700-part multipart ${(manyCost / ROUNDS / 1000).toFixed(2)} ms (${ratio.toFixed(2)}×)`,
    );
    expect(ratio).toBeLessThan(MOST_TIMES_A_TINY_ONE);
  });
});

describe('a multipart body with more parts than a submission may have (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { LOG_LEVEL: 'warn' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('stops reading parts at the limit and answers 400 naming it, storing nothing', async () => {
    const { account } = await createAccount(t);
    const { form } = await createForm(t, account.id);
    const agent = new Agent({ keepAlive: true });
    try {
      const answer = await post(
        agent,
        `${t.url}/api/submit/${form.id}`,
        MANY_PARTS,
        MULTIPART,
      );
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toEqual({
        error: 'Validation failed',
        errors: [tooManyPartsMessage()],
      });
      // It was counted: the rate limit comes first.
      expect(answer.headers['x-ratelimit-remaining']).toBe('9');
      expect(answer.headers['access-control-allow-origin']).toBe('*');
      expect(
        await t.dataSource
          .getRepository(Submission)
          .countBy({ formId: form.id }),
      ).toBe(0);
    } finally {
      agent.destroy();
    }
  });
});

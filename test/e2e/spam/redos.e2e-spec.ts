// Inputs crafted to make a regular expression backtrack: before the fix each of these held
// the event loop for seconds (11.5 s for the sign-up email, 8.7 s for the phone field), and
// every other request of the server waited with it. Now they are refused at once.
import { Account } from '../../../src/accounts/account.entity.js';
import { FormsService } from '../../../src/forms/forms.service.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import { DashboardClient, textOf } from '../../support/dashboard-client.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

/** Far below the seconds the backtracking took, far above a linear check on a busy machine. */
const PROMPT_MS = 1500;

async function timed<T>(work: Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work;
  return { ms: performance.now() - started, value };
}

describe('patterns on request data answer in linear time (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { SUBMIT_RATE_LIMIT: '1000' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a sign-up email of 99,000 dots at once, and the server stays responsive', async () => {
    const client = new DashboardClient(t.url);
    const email = `a@${'.'.repeat(99_000)}@`;
    const attack = timed(client.signUp(email));
    // Sent while the sign-up is being handled: it must not wait behind it.
    const health = await timed(request(`${t.url}/health/live`));
    const { ms, value: page } = await attack;

    expect(page.status).toBe(400);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(textOf(page.html)).toContain('Email must be a valid email address');
    expect(page.setCookies.join()).not.toMatch(/dashboard_session=[^;]/);
    expect(ms).toBeLessThan(PROMPT_MS);
    expect(health.value.status).toBe(200);
    expect(health.ms).toBeLessThan(PROMPT_MS);
    expect(await t.dataSource.getRepository(Account).count()).toBe(0);
  });

  it('refuses a phone value of 99,996 spaces at once, with the usual 400 body', async () => {
    const { account } = await createAccount(t);
    const { form } = await createForm(t, account.id, {
      fields: [{ id: 'phone', type: 'tel', maxLength: 100_000 }],
    });
    const { ms, value: res } = await timed(
      request(`${t.url}/api/submit/${form.id}`, {
        json: { phone: `1${' '.repeat(99_996)}!` },
      }),
    );

    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Validation failed',
      errors: ['phone must be a phone number'],
    });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(ms).toBeLessThan(PROMPT_MS);
    expect(
      await t.dataSource.getRepository(Submission).countBy({ formId: form.id }),
    ).toBe(0);
  });

  it('refuses 256 default-length phone attacks in parallel in a bounded time', async () => {
    const { account } = await createAccount(t);
    const { form } = await createForm(t, account.id, {
      fields: [{ id: 'phone', type: 'tel' }],
    });
    const { ms, value: answers } = await timed(
      Promise.all(
        Array.from({ length: 256 }, () =>
          request(`${t.url}/api/submit/${form.id}`, {
            json: { phone: `1${' '.repeat(4_997)}!` },
          }),
        ),
      ),
    );

    expect(answers.map((res) => res.status)).toEqual(
      Array<number>(256).fill(400),
    );
    expect(answers[0].body).toEqual({
      error: 'Validation failed',
      errors: ['phone must be a phone number'],
    });
    // Before the fix these 256 requests held the event loop for 7–10 s in all.
    expect(ms).toBeLessThan(4 * PROMPT_MS);
  });

  it('checks hostile values against hostile spam rules at once, and stores them as spam', async () => {
    const { account } = await createAccount(t);
    const { form } = await createForm(t, account.id, { fields: [] });
    // Phrases that share 47 words with every stretch of the values, and values full
    // of link beginnings (within the 100 kB body limit): a naive search would compare
    // each phrase at each position.
    await t.app.get(FormsService).patch(form, {
      spamFilter: {
        maxLinks: 5,
        blockedWords: Array.from({ length: 200 }, (_, i) =>
          `${'a '.repeat(47)}b${i}`.slice(0, 100),
        ),
      },
    });
    const body: Record<string, string> = {};
    for (let i = 0; i < 10; i += 1) body[`k${i}`] = 'a '.repeat(2500);
    for (let i = 10; i < 19; i += 1) {
      body[`k${i}`] = 'www.'.repeat(1250).slice(0, 5000);
    }
    const { ms, value: res } = await timed(
      request(`${t.url}/api/submit/${form.id}`, { json: body }),
    );

    expect(res.status).toBe(200);
    expect(ms).toBeLessThan(PROMPT_MS);
    const [row] = await t.dataSource
      .getRepository(Submission)
      .findBy({ formId: form.id });
    expect([row.spam, row.spamReasons]).toEqual([true, ['too-many-links']]);
  });
});

// The dashboard's spam pages over plain HTTP: the Spam tab (count, reasons, Not spam, which
// notifies the submission then), Move to spam on a submission's page, the Spam protection
// section of the settings (CAPTCHA and content rules, errors beside the fields, the secret
// never shown), the snippets with the ALTCHA widget, and the counts of posts the honeypot
// and the CAPTCHA turned away in the last 30 days.
import { AccountsService } from '../../../src/accounts/accounts.service.js';
import { Delivery } from '../../../src/notifications/deliveries/delivery.entity.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { insertSubmissions } from '../../factories/submissions.js';
import { DashboardClient, textOf } from '../../support/dashboard-client.js';
import { request } from '../../support/http.js';
import { waitFor } from '../../support/server-process.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

describe('dashboard spam pages (e2e)', () => {
  let t: TestApp;
  let client: DashboardClient;
  let form: TestForm;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp({
      env: { SUBMIT_RATE_LIMIT: '1000', WEBHOOK_ALLOW_PRIVATE: 'true' },
    });
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    client = new DashboardClient(t.url);
    const email = `spam-${Date.now()}-${Math.random()}@example.com`;
    expect((await client.signUp(email)).status).toBe(303);
    const owner = await t.app.get(AccountsService).findByEmail(email);
    form = await createForm(t, owner!.id, { name: 'Contact' });
    base = `/dashboard/forms/${form.form.id}`;
  });

  const rows = () =>
    t.dataSource
      .getRepository(Submission)
      .find({ where: { formId: form.form.id }, order: { id: 'ASC' } });

  it('lists the spam folder with reasons, and Not spam moves one out and notifies it', async () => {
    const hook = await request(
      `${t.url}/api/v1/forms/${form.form.id}/webhooks`,
      {
        apiKey: form.apiKey,
        json: { url: 'http://127.0.0.1:9/hook', enabled: true },
      },
    );
    expect(hook.status).toBe(201);
    const now = Date.now();
    const [clean, caught] = await insertSubmissions(t, form.form.id, [
      { createdAt: new Date(now - 2000), data: { name: 'Real person' } },
      {
        createdAt: new Date(now - 1000),
        data: { name: 'Casino <b>bot</b>' },
        spamReasons: ['blocked-word', 'too-many-links'],
      },
    ]);
    const overview = await client.get(base);
    expect(overview.html).toContain(`href="${base}/spam"`);
    expect(textOf(overview.html)).not.toContain('Casino');

    const tab = await client.get(`${base}/spam`);
    expect(tab.status).toBe(200);
    const text = textOf(tab.html);
    expect(text).toContain('1 submission in spam');
    expect(text).toContain('Blocked word');
    expect(text).toContain('Too many links');
    expect(tab.html).toContain('Casino &lt;b&gt;bot&lt;/b&gt;');
    expect(tab.html).not.toContain('<b>bot</b>');
    expect(tab.html).not.toContain(clean.id);

    // Without the CSRF token nothing moves.
    const forged = await client.post(
      `${base}/spam/${caught.id}/release`,
      {},
      { csrf: null },
    );
    expect(forged.status).toBe(403);
    expect((await rows()).map((r) => r.spam)).toEqual([false, true]);

    const released = await client.post(
      `${base}/spam/${caught.id}/release`,
      {},
      { from: `${base}/spam` },
    );
    expect(released.status).toBe(303);
    expect(released.location).toBe(`${base}/spam?done=released`);
    expect((await rows()).map((r) => r.spam)).toEqual([false, false]);
    const deliveries = () =>
      t.dataSource.getRepository(Delivery).findBy({ submissionId: caught.id });
    await waitFor(
      async () => (await deliveries()).length > 0,
      10_000,
      'the delivery of the released submission',
    );
    expect(await deliveries()).toHaveLength(1);
    const after = await client.get(released.location!);
    expect(textOf(after.html)).toContain('Moved out of spam');
    expect(textOf(after.html)).toContain('0 submissions in spam');
  });

  it('moves a submission to spam from its page', async () => {
    const [row] = await insertSubmissions(t, form.form.id, [
      { createdAt: new Date() },
    ]);
    const detail = `${base}/submissions/${row.id}`;
    expect((await client.get(detail)).html).toContain('Move to spam');
    const moved = await client.post(`${detail}/spam`, {}, { from: detail });
    expect(moved.status).toBe(303);
    const [stored] = await rows();
    expect([stored.spam, stored.spamReasons]).toEqual([
      true,
      ['marked-by-owner'],
    ]);
    expect(textOf((await client.get(`${base}/spam`)).html)).toContain(
      'Marked by you',
    );
  });

  it('saves spam protection in the settings, keeps the secret out of the page, and shows errors beside the fields', async () => {
    const settings = `${base}/settings`;
    const page = await client.get(settings);
    expect(page.html).toContain('id="spam"');
    const refused = await client.post(
      `${settings}/spam`,
      {
        captchaProvider: 'turnstile',
        captchaSiteKey: 'site-key',
        captchaSecret: '',
        maxLinks: '-3',
        blockedWords: 'casino',
      },
      { from: settings },
    );
    expect(refused.status).toBe(400);
    const text = textOf(refused.html);
    expect(text).toContain('Most links must be at least 0');
    expect(refused.html).toContain('value="site-key"');

    const saved = await client.post(
      `${settings}/spam`,
      {
        captchaProvider: 'turnstile',
        captchaSiteKey: 'site-key',
        captchaSecret: 'very-secret-value',
        spamFilterEnabled: 'on',
        maxLinks: '2',
        blockedWords: 'casino\n  cheap pills  \n',
        duplicates: 'on',
      },
      { from: settings },
    );
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`${settings}?done=spam-saved#spam`);
    const api = await request(`${t.url}/api/v1/forms/${form.form.id}`, {
      apiKey: form.apiKey,
    });
    // Switched on for a form that had none: pages already deployed get the grace period.
    expect(api.body.captcha).toEqual({
      provider: 'turnstile',
      siteKey: 'site-key',
      minScore: null,
      secretSet: true,
      graceUntil: expect.any(String),
    });
    const graceDays =
      (Date.parse(api.body.captcha.graceUntil) - Date.now()) / 86_400_000;
    expect(graceDays).toBeGreaterThan(6.99);
    expect(graceDays).toBeLessThanOrEqual(7);
    expect(api.body.spamFilter).toEqual({
      enabled: true,
      maxLinks: 2,
      blockedWords: ['casino', 'cheap pills'],
      duplicates: true,
    });
    const shown = await client.get(settings);
    expect(shown.html).not.toContain('very-secret-value');
    expect(textOf(shown.html)).toContain('A secret is stored');

    // Switching to ALTCHA drops the secret; the snippets then load the widget.
    const altcha = await client.post(
      `${settings}/spam`,
      {
        captchaProvider: 'altcha',
        spamFilterEnabled: 'on',
        maxLinks: '5',
        blockedWords: '',
      },
      { from: settings },
    );
    expect(altcha.status).toBe(303);
    const overview = await client.get(base);
    const submitUrl = `${t.url}/api/submit/${form.form.id}`;
    expect(overview.html).toContain(
      `&lt;script src=&quot;${t.url}/static/altcha/altcha.js&quot; async defer&gt;&lt;/script&gt;`,
    );
    expect(overview.html).toContain(
      `&lt;altcha-widget challenge=&quot;${submitUrl}/challenge&quot; auto=&quot;onload&quot;&gt;&lt;/altcha-widget&gt;`,
    );
  });

  it('shows how many posts the honeypot and the CAPTCHA turned away in the last 30 days', async () => {
    const patch = await request(`${t.url}/api/v1/forms/${form.form.id}`, {
      method: 'PATCH',
      apiKey: form.apiKey,
      json: { captcha: { provider: 'altcha' } },
    });
    expect(patch.status).toBe(200);
    const submit = (json: Record<string, unknown>) =>
      request(`${t.url}/api/submit/${form.form.id}`, { json });
    for (let i = 0; i < 3; i += 1) {
      expect((await submit({ name: 'Bot', _honeypot: 'x' })).status).toBe(200);
    }
    for (let i = 0; i < 2; i += 1) {
      const refused = await submit({
        name: 'Bot',
        email: 'bot@example.com',
        altcha: 'nope',
      });
      expect(refused.body.errors).toEqual([
        'captcha: the ALTCHA solution is malformed',
      ]);
    }
    const overview = await client.get(base);
    expect(overview.html).toMatch(/data-testid="turned-away-honeypot">3<\/dd>/);
    expect(overview.html).toMatch(/data-testid="turned-away-captcha">2<\/dd>/);
    const tab = await client.get(`${base}/spam`);
    expect(tab.html).toMatch(/data-testid="turned-away-honeypot">3<\/dd>/);
    expect(tab.html).toMatch(/data-testid="turned-away-captcha">2<\/dd>/);
    expect(await rows()).toEqual([]);
  });

  it("answers 404 for another owner's form", async () => {
    const stranger = new DashboardClient(t.url);
    expect(
      (await stranger.signUp(`stranger-${Date.now()}@example.com`)).status,
    ).toBe(303);
    expect((await stranger.get(`${base}/spam`)).status).toBe(404);
    const [row] = await insertSubmissions(t, form.form.id, [
      { createdAt: new Date(), spamReasons: ['duplicate'] },
    ]);
    const attempt = await stranger.post(
      `${base}/spam/${row.id}/release`,
      {},
      { from: '/dashboard/forms' },
    );
    expect(attempt.status).toBe(404);
    expect((await rows())[0].spam).toBe(true);
  });
});

// The CAPTCHA grace period in the dashboard: switching a CAPTCHA on from the settings starts
// it, the form's page says until when posts without an answer are kept as spam, and the
// settings page's button ends it (refusing such posts from then on).
import { AccountsService } from '../../../src/accounts/accounts.service.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { DashboardClient, textOf } from '../../support/dashboard-client.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

describe('dashboard: the CAPTCHA grace period (e2e)', () => {
  let t: TestApp;
  let client: DashboardClient;
  let form: TestForm;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { SUBMIT_RATE_LIMIT: '1000' } });
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    client = new DashboardClient(t.url);
    const email = `grace-${Date.now()}-${Math.random()}@example.com`;
    expect((await client.signUp(email)).status).toBe(303);
    const owner = await t.app.get(AccountsService).findByEmail(email);
    form = await createForm(t, owner!.id, { name: 'Contact' });
    base = `/dashboard/forms/${form.form.id}`;
  });

  const rows = () =>
    t.dataSource
      .getRepository(Submission)
      .find({ where: { formId: form.form.id }, order: { id: 'ASC' } });
  const submit = () =>
    request(`${t.url}/api/submit/${form.form.id}`, {
      json: { name: 'Ada', email: 'ada@example.com' },
    });

  it('starts with the switch, is shown on the form page, and ends with the button', async () => {
    const settings = `${base}/settings`;
    const before = await client.get(settings);
    expect(before.html).not.toContain('id="captcha-grace"');
    const saved = await client.post(
      `${settings}/spam`,
      {
        captchaProvider: 'altcha',
        spamFilterEnabled: 'on',
        maxLinks: '5',
        blockedWords: '',
      },
      { from: settings },
    );
    expect(saved.status).toBe(303);
    const api = await request(`${t.url}/api/v1/forms/${form.form.id}`, {
      apiKey: form.apiKey,
    });
    const graceUntil = api.body.captcha.graceUntil as string;
    expect(Date.parse(graceUntil) - Date.now()).toBeGreaterThan(
      6.99 * 86_400_000,
    );

    // The form page says until when, with the exact time in the markup.
    const overview = await client.get(base);
    expect(overview.status).toBe(200);
    expect(overview.html).toContain('data-testid="captcha-grace"');
    expect(overview.html).toContain(`<time datetime="${graceUntil}">`);
    expect(textOf(overview.html)).toContain(
      'posts without a CAPTCHA answer are kept as spam until',
    );
    expect((await submit()).status).toBe(200);
    expect((await rows()).map((r) => r.spamReasons)).toEqual([
      ['captcha-missing'],
    ]);
    // The spam folder names the reason in words.
    const folder = await client.get(`${base}/spam`);
    expect(textOf(folder.html)).toContain(
      'No CAPTCHA answer (kept during the grace period)',
    );

    // The settings page offers to end it; ending it lands back on the settings.
    const page = await client.get(settings);
    expect(page.html).toContain('id="captcha-grace"');
    expect(page.html).toContain(`action="${base}/settings/spam/end-grace"`);
    const ended = await client.post(
      `${settings}/spam/end-grace`,
      {},
      {
        from: settings,
      },
    );
    expect(ended.status).toBe(303);
    expect(ended.location).toBe(`${settings}?done=grace-ended#spam`);
    const after = await client.get(ended.location!);
    expect(textOf(after.html)).toContain(
      'Grace period ended: posts without a CAPTCHA answer are refused from now on.',
    );
    expect(after.html).not.toContain('id="captcha-grace"');
    const read = await request(`${t.url}/api/v1/forms/${form.form.id}`, {
      apiKey: form.apiKey,
    });
    expect(read.body.captcha).toEqual({
      provider: 'altcha',
      siteKey: null,
      minScore: null,
      secretSet: false,
      graceUntil: null,
    });
    expect((await client.get(base)).html).not.toContain(
      'data-testid="captcha-grace"',
    );
    const refused = await submit();
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      'captcha: no ALTCHA solution was sent (the "altcha" field is missing)',
    ]);
    expect(await rows()).toHaveLength(1);
  });

  it('refuses the button without the CSRF token', async () => {
    expect(
      (
        await request(`${t.url}/api/v1/forms/${form.form.id}`, {
          method: 'PATCH',
          apiKey: form.apiKey,
          json: { captcha: { provider: 'altcha' } },
        })
      ).status,
    ).toBe(200);
    const forged = await client.post(
      `${base}/settings/spam/end-grace`,
      {},
      {
        csrf: null,
      },
    );
    expect(forged.status).toBe(403);
    const read = await request(`${t.url}/api/v1/forms/${form.form.id}`, {
      apiKey: form.apiKey,
    });
    expect(read.body.captcha.graceUntil).toEqual(expect.any(String));
  });
});

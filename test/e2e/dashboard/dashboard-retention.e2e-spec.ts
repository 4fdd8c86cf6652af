// The dashboard's Retention setting on a form's settings page: saved, shown again, cleared,
// refused with the typed value kept (escaped), and only with the CSRF token.
import { AccountsService } from '../../../src/accounts/accounts.service.js';
import { Form } from '../../../src/forms/form.entity.js';
import { RETENTION_ERROR } from '../../../src/dashboard/forms/dashboard-retention.controller.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { DashboardClient, textOf } from '../../support/dashboard-client.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

let counter = 0;

describe('dashboard: a form’s retention (e2e)', () => {
  let t: TestApp;
  let client: DashboardClient;
  let form: TestForm;
  let settings: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  beforeEach(async () => {
    counter += 1;
    const email = `retention-${counter}-${Date.now()}@example.com`;
    client = new DashboardClient(t.url);
    client.headers['x-forwarded-for'] = `198.51.100.${counter}`;
    expect((await client.signUp(email)).status).toBe(303);
    const owner = await t.app.get(AccountsService).findByEmail(email);
    form = await createForm(t, owner!.id);
    settings = `/dashboard/forms/${form.form.id}/settings`;
  });

  const stored = async () =>
    (
      await t.dataSource
        .getRepository(Form)
        .findOneByOrFail({ id: form.form.id })
    ).retentionDays;

  it('saves the days, shows them again, and clears them when emptied', async () => {
    const page = await client.get(settings);
    expect(page.status).toBe(200);
    expect(textOf(page.html)).toContain('Keep submissions for');
    expect(page.html).toContain('name="retentionDays" type="text" value=""');

    const saved = await client.post(
      `${settings}/retention`,
      { retentionDays: ' 90 ' },
      { from: settings },
    );
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`${settings}?done=retention-saved#retention`);
    expect(await stored()).toBe(90);
    const shown = await client.get(`${settings}?done=retention-saved`);
    expect(shown.html).toContain('name="retentionDays" type="text" value="90"');
    expect(textOf(shown.html)).toContain('Retention saved.');

    const cleared = await client.post(
      `${settings}/retention`,
      { retentionDays: '' },
      { from: settings },
    );
    expect(cleared.status).toBe(303);
    expect(cleared.location).toBe(`${settings}?done=retention-off#retention`);
    expect(await stored()).toBeNull();
  });

  it('refuses days outside 1–3650 or not a number, keeping what was typed, escaped', async () => {
    await client.post(
      `${settings}/retention`,
      { retentionDays: '30' },
      { from: settings },
    );
    for (const typed of ['0', '3651', '1.5', '"><b>x</b>']) {
      const page = await client.post(
        `${settings}/retention`,
        { retentionDays: typed },
        { from: settings },
      );
      expect(page.status, typed).toBe(400);
      expect(textOf(page.html)).toContain(RETENTION_ERROR);
      expect(page.html).toContain('id="retentionDays-error"');
      expect(page.html).toContain('aria-invalid="true"');
      expect(page.html).not.toContain('<b>x</b>');
    }
    const last = await client.post(
      `${settings}/retention`,
      { retentionDays: '"><b>x</b>' },
      { from: settings },
    );
    expect(last.html).toContain('value="&quot;&gt;&lt;b&gt;x&lt;/b&gt;"');
    expect(await stored()).toBe(30);
  });

  it('refuses a post without the CSRF token, changing nothing', async () => {
    const refused = await client.post(
      `${settings}/retention`,
      { retentionDays: '7' },
      { csrf: null },
    );
    expect(refused.status).toBe(403);
    expect(await stored()).toBeNull();
  });

  it('answers 404 for another owner’s form', async () => {
    const other = new DashboardClient(t.url);
    other.headers['x-forwarded-for'] = `198.51.100.${200 + counter}`;
    expect(
      (await other.signUp(`retention-other-${counter}@example.com`)).status,
    ).toBe(303);
    const refused = await other.post(
      `${settings}/retention`,
      { retentionDays: '7' },
      { from: '/dashboard/forms' },
    );
    expect(refused.status).toBe(404);
    expect(await stored()).toBeNull();
  });
});

// The dashboard's "After a visitor sends the form" settings (redirect address and thank-you
// message) and the snippets that explain them.
import { AccountsService } from '../../../src/accounts/accounts.service.js';
import { Form } from '../../../src/forms/form.entity.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { DashboardClient, textOf } from '../../support/dashboard-client.js';
import { navigate, pageText } from '../../support/navigation.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

let counter = 0;

describe('dashboard: after a visitor sends the form (e2e)', () => {
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
    const email = `after-submit-${counter}-${Date.now()}@example.com`;
    client = new DashboardClient(t.url);
    client.headers['x-forwarded-for'] = `198.51.100.${counter}`;
    expect((await client.signUp(email)).status).toBe(303);
    const owner = await t.app.get(AccountsService).findByEmail(email);
    form = await createForm(t, owner!.id);
    settings = `/dashboard/forms/${form.form.id}/settings`;
  });

  const stored = () =>
    t.dataSource.getRepository(Form).findOneByOrFail({ id: form.form.id });

  it('saves a redirect address and a message, which the next native post uses', async () => {
    const page = await client.get(settings);
    expect(page.status).toBe(200);
    expect(textOf(page.html)).toContain('After a visitor sends the form');

    const saved = await client.post(
      `${settings}/after-submit`,
      {
        redirectUrl: ' https://www.example.com/thanks ',
        successMessage: 'See you soon',
      },
      { from: settings },
    );
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(
      `${settings}?done=after-submit-saved#after-submit`,
    );
    expect(await stored()).toMatchObject({
      redirectUrl: 'https://www.example.com/thanks',
      successMessage: 'See you soon',
    });
    const shown = await client.get(`${settings}?done=after-submit-saved`);
    expect(shown.html).toContain('value="https://www.example.com/thanks"');
    expect(shown.html).toContain('>See you soon</textarea>');

    const post = await navigate(`${t.url}/api/submit/${form.form.id}`, {
      name: 'Ada',
      email: 'ada@example.com',
    });
    expect(post.status).toBe(303);
    expect(post.headers.get('location')).toBe('https://www.example.com/thanks');

    // Emptied: back to the thank-you page with the default message.
    await client.post(
      `${settings}/after-submit`,
      { redirectUrl: '', successMessage: '' },
      { from: settings },
    );
    expect(await stored()).toMatchObject({
      redirectUrl: null,
      successMessage: null,
    });
    const thanks = await navigate(`${t.url}/api/submit/${form.form.id}`, {
      name: 'Ada',
      email: 'ada@example.com',
    });
    expect(thanks.status).toBe(200);
    expect(pageText(thanks.text)).toContain(
      'Thank you! Your message has been sent.',
    );
  });

  it('keeps what was typed and explains a bad address beside its field', async () => {
    const page = await client.post(
      `${settings}/after-submit`,
      {
        redirectUrl: 'javascript:alert(1)',
        successMessage: 'x'.repeat(501),
      },
      { from: settings },
    );
    expect(page.status).toBe(400);
    const text = textOf(page.html);
    expect(text).toContain(
      'Redirect address must be an absolute URL starting with http:// or https://',
    );
    expect(text).toContain(
      'Thank-you message must be at most 500 characters long',
    );
    expect(page.html).toContain('value="javascript:alert(1)"');
    expect(page.html).toContain('aria-invalid="true"');
    expect(await stored()).toMatchObject({
      redirectUrl: null,
      successMessage: null,
    });
  });

  it('shows snippets that post FormData and say how to redirect', async () => {
    const page = await client.get(`/dashboard/forms/${form.form.id}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('body: new FormData(form),');
    expect(page.html).toContain('name=&quot;_redirect&quot;');
    expect(textOf(page.html)).toContain(
      'set a redirect address under After a visitor sends the form in the settings',
    );
    expect(page.html).toContain(`/settings#after-submit`);
  });

  it('offers "Coming from Formspree?" with the address that works', async () => {
    const page = await client.get(`/dashboard/forms/${form.form.id}`);
    expect(page.status).toBe(200);
    expect(textOf(page.html)).toContain('Coming from Formspree?');
    const submitUrl = /(https?:\/\/[^"&<\s]+)\/api\/submit\//.exec(page.html);
    expect(submitUrl).not.toBeNull();
    const action = `${submitUrl![1]}/f/${form.form.id}`;
    expect(page.html).toContain(
      `action=&quot;${action}&quot; method=&quot;POST&quot;`,
    );
    // The address the snippet shows answers a Formspree-style post.
    const posted = await navigate(`${t.url}/f/${form.form.id}`, {
      name: 'From Formspree',
      email: 'moved@example.com',
      _gotcha: '',
    });
    expect(posted.status).toBe(200);
    expect(pageText(posted.text)).toContain('Thank you');
  });
});

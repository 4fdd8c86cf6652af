// What a newcomer tripped over in the dashboard, over plain HTTP (2/2): where a page lands —
// a search shows its results and their count first, a save lands on its section with its
// notice there, the settings page has a menu of its sections — and a visitor's error page
// names fields by their labels (the JSON answers unchanged). The rest:
// dashboard-confirm-and-files.e2e-spec.ts.
import { ownedAccountId } from '../../support/stored-rows.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import {
  freshEmail,
  sectionOf,
  signedInClient,
  textOf,
  type DashboardClient,
} from '../../support/dashboard-client.js';
import { PDF } from '../../support/files.js';
import { request } from '../../support/http.js';
import { navigate } from '../../support/navigation.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

describe('dashboard: where pages land (e2e)', () => {
  let t: TestApp;
  let owner: DashboardClient;
  let accountId: string;

  beforeAll(async () => {
    t = await createTestApp({
      env: { TRUST_PROXY: '127.0.0.1', WEBHOOK_ALLOW_PRIVATE: 'true' },
    });
    const email = freshEmail('landing');
    owner = await signedInClient(t.url, '203.0.113.31', email);
    accountId = await ownedAccountId(t.dataSource, email);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('the form page', () => {
    let form: TestForm;

    beforeAll(async () => {
      form = await createForm(t, accountId, { name: 'Contact' });
      for (const name of ['Ada Lovelace', 'Alan Turing', 'Grace Hopper']) {
        const sent = await request(`${t.url}/api/submit/${form.form.id}`, {
          json: { name, email: 'x@example.org' },
        });
        expect(sent.status).toBe(200);
      }
    });

    it('opens on the inbox when nothing is searched: the list, then Activity; the snippets on Setup', async () => {
      const { html } = await owner.get(`/dashboard/forms/${form.form.id}`);
      const list = html.indexOf('id="submissions-title"');
      expect(list).toBeGreaterThan(-1);
      expect(list).toBeLessThan(html.indexOf('id="activity-title"'));
      expect(html).not.toContain('data-testid="results-count"');
      expect(html).not.toContain('id="connect-title"');
      expect(html).not.toContain('id="snippets-title"');
      const setup = await owner.get(`/dashboard/forms/${form.form.id}/setup`);
      expect(setup.status).toBe(200);
      expect(setup.html).toContain('id="connect-title"');
      expect(setup.html).toContain('id="snippets-title"');
      expect(setup.html).not.toContain('id="submissions-title"');
    });

    it('puts a search’s results and their count above the chart and the stat cards', async () => {
      const { status, html } = await owner.get(
        `/dashboard/forms/${form.form.id}?q=a%20l`,
      );
      expect(status).toBe(200);
      const list = html.indexOf('id="submissions-title"');
      expect(list).toBeGreaterThan(-1);
      expect(list).toBeLessThan(html.indexOf('id="activity-title"'));
      expect(list).toBeLessThan(html.indexOf('class="stats"'));
      expect(html).not.toContain('id="connect-title"');
      expect(html).toContain(
        '<strong data-testid="match-count">1 submission matches</strong>. Showing new submissions containing “a l”, newest first.',
      );

      const day = new Date().toISOString().slice(0, 10);
      const ranged = textOf(
        (
          await owner.get(
            `/dashboard/forms/${form.form.id}?from=${day}&to=${day}`,
          )
        ).html,
      );
      expect(ranged).toMatch(
        /Showing new submissions received .*, newest first\. 3 submissions in all\./,
      );
    });
  });

  describe('the settings page', () => {
    let form: TestForm;
    let settings: string;

    beforeAll(async () => {
      form = await createForm(t, accountId, {
        name: 'Settings',
        fields: [
          { id: 'name', type: 'text', label: 'Name' },
          { id: 'cv', type: 'file', label: 'CV' },
        ],
      });
      settings = `/dashboard/forms/${form.form.id}/settings`;
    });

    it('has a menu of its sections, each an anchor on the page with one save of its own', async () => {
      const { html } = await owner.get(settings);
      const menu =
        /<nav class="section-menu" aria-label="Settings sections">([\s\S]*?)<\/nav>/.exec(
          html,
        );
      expect(menu).not.toBeNull();
      const anchors = [...menu![1].matchAll(/href="#([a-z-]+)"/g)].map(
        (m) => m[1],
      );
      expect(anchors).toEqual([
        'general',
        'after-submit',
        'retention',
        'spam',
        'autoresponse',
        'domains',
        'api-key',
      ]);
      for (const anchor of anchors) expect(html).toContain(`id="${anchor}"`);
      for (const anchor of ['general', 'after-submit', 'retention', 'spam']) {
        const section = sectionOf(html, anchor);
        expect(
          section.match(/class="button button-primary"/g),
          anchor,
        ).toHaveLength(1);
      }
      // Each row says its type, so the file settings show only on the file row.
      expect(html).toMatch(/<fieldset class="field-row" data-type="text">/);
      expect(html).toMatch(/<fieldset class="field-row" data-type="file">/);
    });

    it('lands a save on its section, with its notice there and not at the page’s top', async () => {
      const saved = await owner.post(
        `${settings}/retention`,
        { retentionDays: '30' },
        { from: settings },
      );
      expect(saved.status).toBe(303);
      expect(saved.location).toBe(`${settings}?done=retention-saved#retention`);
      const { html } = await owner.get(saved.location!);
      expect(sectionOf(html, 'retention')).toContain('Retention saved.');
      expect(html.match(/Retention saved\./g)).toHaveLength(1);
      expect(html.indexOf('Retention saved.')).toBeGreaterThan(
        html.indexOf('id="retention"'),
      );

      const named = await owner.post(
        settings,
        [
          ['name', 'Settings 2'],
          ['f0.id', 'name'],
          ['f0.type', 'text'],
          ['op', 'save'],
        ],
        { from: settings },
      );
      expect(named.status).toBe(303);
      expect(named.location).toBe(`${settings}?done=saved#general`);
      expect(
        sectionOf((await owner.get(named.location!)).html, 'general'),
      ).toContain('Changes saved.');
    });
  });

  it('names fields by their labels on a visitor’s error page, leaving the JSON answers as they were', async () => {
    const form = await createForm(t, accountId, {
      name: 'Labels',
      fields: [
        { id: 'email', type: 'email', label: 'Your <email>', required: true },
        { id: 'phone', type: 'tel', required: true },
      ],
    });
    for (const path of ['api/submit', 'f']) {
      const page = await navigate(
        `${t.url}/${path}/${form.form.id}`,
        new URLSearchParams({ email: 'nope' }),
      );
      expect(page.status, path).toBe(400);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.text).toContain(
        '<li>Your &lt;email&gt; must be a valid email address</li>',
      );
      // A field without a label is named by its id.
      expect(page.text).toContain('<li>phone is required</li>');
    }
    // A file too large is named by its field's label too.
    const jobs = await createForm(t, accountId, {
      name: 'Jobs',
      fields: [{ id: 'cv', type: 'file', label: 'Your CV', maxSize: 10 }],
    });
    const upload = new FormData();
    upload.append('cv', new Blob([PDF]), 'cv.pdf');
    const tooLarge = await navigate(
      `${t.url}/api/submit/${jobs.form.id}`,
      upload,
    );
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.text).toContain('Too much data');
    expect(tooLarge.text).toContain('Your CV: larger than 10 bytes');

    const json = await request(`${t.url}/api/submit/${form.form.id}`, {
      json: { email: 'nope' },
    });
    expect(json.status).toBe(400);
    expect(json.body).toEqual({
      error: 'Validation failed',
      errors: ['email must be a valid email address', 'phone is required'],
    });
    const formspree = await request(`${t.url}/f/${form.form.id}`, {
      json: { email: 'nope' },
      headers: { accept: 'application/json' },
    });
    expect(formspree.status).toBe(400);
    expect(JSON.stringify(formspree.body)).not.toContain('Your');
    expect(
      formspree.body.errors.map((e: { field?: string }) => e.field),
    ).toEqual(['email', 'phone']);
  });
});

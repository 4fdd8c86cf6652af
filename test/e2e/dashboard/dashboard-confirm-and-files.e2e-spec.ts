// What a newcomer tripped over in the dashboard, over plain HTTP (1/2): deleting a webhook and
// rotating its secret ask first, uploaded files are names and links (in the list and in the
// CSV, whose links open without a key), the endpoint hint names multipart for a form with
// files, and the guides the dashboard mentions are links. The rest: dashboard-landing.e2e-spec.ts.
import { ownedAccountId } from '../../support/stored-rows.js';
import { StoredFile } from '../../../src/files/stored-file.entity.js';
import { Webhook } from '../../../src/notifications/webhooks/webhook.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { parseCsv } from '../../support/csv.js';
import {
  freshEmail,
  sectionOf,
  signedInClient,
  textOf,
  type DashboardClient,
} from '../../support/dashboard-client.js';
import { multipart, MULTIPART_TYPE, PDF } from '../../support/files.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

describe('dashboard: confirmations and files (e2e)', () => {
  let t: TestApp;
  let owner: DashboardClient;
  let accountId: string;

  beforeAll(async () => {
    t = await createTestApp({
      env: { TRUST_PROXY: '127.0.0.1', WEBHOOK_ALLOW_PRIVATE: 'true' },
    });
    const email = freshEmail('edges');
    owner = await signedInClient(t.url, '203.0.113.30', email);
    accountId = await ownedAccountId(t.dataSource, email);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('webhooks', () => {
    let form: TestForm;
    let hook: Webhook;
    let page: string;

    beforeAll(async () => {
      form = await createForm(t, accountId, { name: 'Hooks' });
      page = `/dashboard/forms/${form.form.id}/notifications`;
      const added = await request(
        `${t.url}/api/v1/forms/${form.form.id}/webhooks`,
        {
          apiKey: form.apiKey,
          json: { url: 'http://127.0.0.1:9/hook', description: 'CRM <b>' },
        },
      );
      expect(added.status).toBe(201);
      hook = await t.dataSource
        .getRepository(Webhook)
        .findOneByOrFail({ formId: form.form.id });
    });

    it('links Delete and Rotate secret to a confirmation page instead of posting at once', async () => {
      const tab = await owner.get(page);
      expect(tab.status).toBe(200);
      const base = `${page}/webhooks/${hook.id}`;
      expect(tab.html).toContain(`href="${base}/delete"`);
      expect(tab.html).toContain(`href="${base}/rotate"`);
      expect(tab.html).not.toContain(`action="${base}/delete`);
      expect(tab.html).not.toContain(`action="${base}/rotate`);
    });

    it('asks before deleting, changes nothing on the way, and deletes on the confirmation', async () => {
      const base = `${page}/webhooks/${hook.id}`;
      const confirm = await owner.get(`${base}/delete`);
      expect(confirm.status).toBe(200);
      expect(confirm.headers.get('content-type')).toMatch(/^text\/html/);
      const text = textOf(confirm.html);
      expect(text).toContain('Delete webhook');
      expect(text).toContain('This deletes the webhook to');
      expect(confirm.html).toContain('http://127.0.0.1:9/hook');
      // What the owner typed is shown escaped.
      expect(confirm.html).toContain('CRM &lt;b&gt;');
      expect(confirm.html).not.toContain('CRM <b>');
      expect(confirm.html).toContain(`action="${base}/delete#webhooks"`);
      expect(confirm.html).toMatch(/name="_csrf" value="[^"]+"/);
      expect(confirm.html).toContain(`href="${page}#webhooks"`);
      expect(
        await t.dataSource.getRepository(Webhook).countBy({ id: hook.id }),
      ).toBe(1);

      // Without the page's token the post is refused.
      const forged = await owner.post(`${base}/delete`, {}, { csrf: 'forged' });
      expect(forged.status).toBe(403);
      expect(
        await t.dataSource.getRepository(Webhook).countBy({ id: hook.id }),
      ).toBe(1);

      const rotate = await owner.get(`${base}/rotate`);
      expect(rotate.status).toBe(200);
      expect(textOf(rotate.html)).toContain(
        'The current secret keeps working for 24 hours',
      );
      expect(rotate.html).toContain(`action="${base}/rotate#webhooks"`);
      const rotated = await owner.post(
        `${base}/rotate`,
        {},
        { from: `${base}/rotate` },
      );
      expect(rotated.status).toBe(200);
      // The new secret and its notice are in the webhooks section, not at the page's top.
      const webhooks = sectionOf(rotated.html, 'webhooks');
      expect(webhooks).toMatch(/value="whsec_[^"]+"/);
      expect(webhooks).toContain('New signing secret made');
      expect(rotated.html.match(/New signing secret made/g)).toHaveLength(1);

      const deleted = await owner.post(
        `${base}/delete`,
        {},
        { from: `${base}/delete` },
      );
      expect(deleted.status).toBe(303);
      expect(deleted.location).toBe(`${page}?done=deleted#webhooks`);
      expect(
        await t.dataSource.getRepository(Webhook).countBy({ id: hook.id }),
      ).toBe(0);
      const after = await owner.get(deleted.location!);
      expect(sectionOf(after.html, 'webhooks')).toContain('Webhook deleted.');
    });

    it('answers 404 for an unknown action, an unknown webhook and another owner’s form', async () => {
      expect(
        (await owner.get(`${page}/webhooks/${hook.id}/explode`)).status,
      ).toBe(404);
      expect(
        (await owner.get(`${page}/webhooks/no-such-hook/delete`)).status,
      ).toBe(404);
      const other = await createAccount(t);
      const theirs = await createForm(t, other.account.id);
      const foreign = await owner.get(
        `/dashboard/forms/${theirs.form.id}/notifications/webhooks/${hook.id}/delete`,
      );
      expect(foreign.status).toBe(404);
    });
  });

  describe('uploaded files', () => {
    let form: TestForm;
    let file: StoredFile;

    beforeAll(async () => {
      form = await createForm(t, accountId, {
        name: 'Jobs',
        fields: [
          { id: 'name', type: 'text', label: 'Name' },
          { id: 'cv', type: 'file', label: 'CV', accept: ['application/pdf'] },
        ],
      });
      const posted = await request(`${t.url}/api/submit/${form.form.id}`, {
        body: multipart([
          { name: 'name', value: 'Ada' },
          { name: 'cv', filename: '=cv <1>.pdf', bytes: PDF },
        ]),
        headers: { 'content-type': MULTIPART_TYPE },
      });
      expect(posted.status).toBe(200);
      file = await t.dataSource
        .getRepository(StoredFile)
        .findOneByOrFail({ formId: form.form.id });
    });

    it('lists a file as its name linking to the dashboard’s download, never as JSON', async () => {
      const page = await owner.get(`/dashboard/forms/${form.form.id}`);
      expect(page.status).toBe(200);
      const link = `/dashboard/forms/${form.form.id}/submissions/${file.submissionId}/files/${file.id}`;
      expect(page.html).toContain(
        `<a href="${link}" download>=cv &lt;1&gt;.pdf</a>`,
      );
      expect(page.html).not.toContain('sha256');
      expect(page.html).not.toContain('&quot;id&quot;');
      // The download works for the owner.
      const download = await owner.get(link);
      expect(download.status).toBe(200);
      expect(download.html).toBe(PDF.toString());
      // The delete confirmation names the file too.
      const confirm = await owner.get(
        `/dashboard/forms/${form.form.id}/submissions/${file.submissionId}/delete`,
      );
      expect(confirm.html).toContain('=cv &lt;1&gt;.pdf');
      expect(confirm.html).not.toContain('sha256');
    });

    it('exports a file as its name and a signed link that opens without a key', async () => {
      for (const [source, csv] of [
        [
          'dashboard',
          await owner.get(`/dashboard/forms/${form.form.id}/submissions.csv`),
        ],
        [
          'api',
          await request(
            `${t.url}/api/v1/forms/${form.form.id}/submissions/export?format=csv`,
            { apiKey: form.apiKey },
          ).then((r) => ({ status: r.status, html: r.text })),
        ],
      ] as const) {
        expect(csv.status, source).toBe(200);
        const [header, row] = parseCsv(csv.html);
        expect(header).toEqual([
          'id',
          'createdAt',
          'name',
          'cv',
          'status',
          'assignee',
          'labels',
        ]);
        expect(row[2]).toBe('Ada');
        // A formula trigger in the name is neutralised like any other text.
        const match =
          /^'=cv <1>\.pdf \((http:\/\/localhost:3000\/files\/([^)]+))\)$/.exec(
            row[3],
          );
        expect(match, `${source}: ${row[3]}`).not.toBeNull();
        expect(match![2].startsWith(`${file.id}.`)).toBe(true);
        const opened = await request(`${t.url}/files/${match![2]}`);
        expect(opened.status).toBe(200);
        expect(opened.headers.get('content-disposition')).toMatch(
          /^attachment;/,
        );
        expect(opened.text).toBe(PDF.toString());
      }
    });

    it('names multipart in the endpoint hint and the fetch snippet of a form with files', async () => {
      const page = await owner.get(`/dashboard/forms/${form.form.id}/setup`);
      const text = textOf(page.html);
      expect(text).toContain('POST · multipart/form-data');
      expect(page.html).toContain('enctype=&quot;multipart/form-data&quot;');
      expect(page.html).toContain('FormData sends them as multipart/form-data');
      const plain = await createForm(t, accountId, { name: 'No files' });
      const other = textOf(
        (await owner.get(`/dashboard/forms/${plain.form.id}/setup`)).html,
      );
      expect(other).toContain('POST · JSON or form-encoded · no key needed');
      expect(other).not.toContain('multipart');
    });
  });

  it('links the guides it mentions, and serves them as text', async () => {
    const form = await createForm(t, accountId, { name: 'Guides' });
    const overview = await owner.get(`/dashboard/forms/${form.form.id}`);
    expect(overview.html).toContain(
      '<a href="/dashboard/docs/formspree.md">docs/formspree.md</a>',
    );
    const settings = await owner.get(
      `/dashboard/forms/${form.form.id}/settings`,
    );
    const linked = [
      ...settings.html.matchAll(/href="\/dashboard\/docs\/([a-z-]+\.md)"/g),
    ].map((m) => m[1]);
    expect(new Set(linked)).toEqual(
      new Set([
        'files.md',
        'lifecycle.md',
        'spam.md',
        'domain-verification.md',
      ]),
    );
    // No mention of a guide is left as plain text.
    expect(
      textOf(overview.html.replace(/<a [^>]*>docs\/[a-z-]+\.md<\/a>/g, '')),
    ).not.toMatch(/docs\/[a-z-]+\.md/);
    for (const name of [...linked, 'formspree.md']) {
      const guide = await request(`${t.url}/dashboard/docs/${name}`);
      expect(guide.status, name).toBe(200);
      expect(guide.headers.get('content-type')).toBe(
        'text/plain; charset=utf-8',
      );
      expect(guide.headers.get('x-content-type-options')).toBe('nosniff');
      expect(guide.text).toMatch(/^# /);
    }
    for (const path of [
      'nope.md',
      '..%2Fpackage.json',
      'README',
      '..%2F..%2Fdocs%2Fspam.md',
    ]) {
      const missing = await request(`${t.url}/dashboard/docs/${path}`);
      expect(missing.status, path).toBe(404);
      expect(missing.headers.get('content-type')).toMatch(/^text\/html/);
    }
  });
});

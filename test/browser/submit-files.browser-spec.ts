// A real browser on a page of another origin uploads files: a native
// <form enctype="multipart/form-data"> with a file input, and fetch(FormData) whose answer
// the script reads. The files are then downloaded through the API, byte for byte.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { StoredFile } from '../../src/files/stored-file.entity.js';
import { Submission } from '../../src/submissions/submission.entity.js';
import { createAccount } from '../factories/accounts.js';
import { createForm, type TestForm } from '../factories/forms.js';
import { describeBrowser, launchBrowser } from '../support/browser.js';
import { PDF, png } from '../support/files.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

function page(submitUrl: string): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Apply</title></head>
<body>
  <form id="apply" action="${submitUrl}" method="POST" enctype="multipart/form-data">
    <input name="name" value="Native Upload">
    <input type="file" name="cv" accept="application/pdf,image/*">
    <input type="file" name="photos" multiple>
    <button type="submit">Send</button>
  </form>
  <script>
    async function upload(name, bytes, filename) {
      const data = new FormData();
      data.append('name', name);
      data.append('cv', new File([new Uint8Array(bytes)], filename, { type: 'text/html' }));
      const res = await fetch(${JSON.stringify(submitUrl)}, { method: 'POST', body: data });
      return { status: res.status, body: await res.json() };
    }
  </script>
</body></html>`;
}

interface PageScript {
  upload(
    name: string,
    bytes: number[],
    filename: string,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
}

const sha256 = (bytes: Buffer) =>
  createHash('sha256').update(bytes).digest('hex');

describeBrowser('file uploads from a page of another origin (browser)', () => {
  let t: TestApp;
  let site: Server;
  let siteOrigin: string;
  let browser: Browser;
  let tab: Page;
  let form: TestForm;

  beforeAll(async () => {
    t = await createTestApp({ env: { SUBMIT_RATE_LIMIT: '1000' } });
    const { account } = await createAccount(t);
    form = await createForm(t, account.id, {
      fields: [
        { id: 'name', type: 'text', required: true },
        {
          id: 'cv',
          type: 'file',
          required: true,
          accept: ['application/pdf', 'image/*'],
        },
        { id: 'photos', type: 'file', maxFiles: 3, accept: ['image/*'] },
      ],
    });
    const html = page(`${t.url}/api/submit/${form.form.id}`);
    site = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });

  beforeEach(async () => {
    tab = await browser.newPage();
    await tab.goto(`${siteOrigin}/apply.html`);
  });
  afterEach(async () => {
    await tab?.close();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
    await t?.close();
  });

  async function submissionNamed(name: string) {
    const rows = await t.dataSource
      .getRepository(Submission)
      .findBy({ formId: form.form.id });
    return rows.find((row) => row.data.name === name);
  }

  async function download(submissionId: string, fileId: string) {
    const response = await fetch(
      `${t.url}/api/v1/forms/${form.form.id}/submissions/${submissionId}/files/${fileId}`,
      { headers: { 'x-api-key': form.apiKey } },
    );
    expect(response.status).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  }

  it('uploads with fetch(FormData) and reads the answer', async () => {
    const bytes = png(40_000);
    const result = await tab.evaluate(
      ([data]) =>
        (window as unknown as PageScript).upload(
          'Fetch Upload',
          data,
          'scan.png',
        ),
      [Array.from(bytes)] as const,
    );
    expect(result).toEqual({
      status: 200,
      body: { success: true, message: 'Submission received' },
    });
    const row = await submissionNamed('Fetch Upload');
    const cv = row!.data.cv as { id: string; type: string; sha256: string };
    expect(cv).toMatchObject({
      name: 'scan.png',
      size: bytes.length,
      type: 'image/png',
      sha256: sha256(bytes),
    });
    expect(row!.origin).toBe(siteOrigin);
    expect(await download(row!.id, cv.id)).toEqual(bytes);
  });

  it('lets the script read a refusal: HTML bytes named .png', async () => {
    const result = await tab.evaluate(
      ([data]) =>
        (window as unknown as PageScript).upload('Sneaky', data, 'cat.png'),
      [
        Array.from(Buffer.from('<!doctype html><script>alert(1)</script>')),
      ] as const,
    );
    expect(result).toEqual({
      status: 400,
      body: {
        error: 'Validation failed',
        errors: [
          'cv: the type of "cat.png" is not recognised from its content',
        ],
      },
    });
    expect(await submissionNamed('Sneaky')).toBeUndefined();
  });

  it('posts a native multipart form with files chosen in its inputs', async () => {
    const photo1 = png(5000);
    const photo2 = png(700);
    await tab.setInputFiles('input[name=cv]', {
      name: 'cv.pdf',
      mimeType: 'application/pdf',
      buffer: PDF,
    });
    await tab.setInputFiles('input[name=photos]', [
      { name: 'a.png', mimeType: 'image/png', buffer: photo1 },
      { name: 'b.png', mimeType: 'image/png', buffer: photo2 },
    ]);
    const submitUrl = `${t.url}/api/submit/${form.form.id}`;
    await Promise.all([
      tab.waitForURL(submitUrl),
      tab.click('button[type=submit]'),
    ]);
    expect(await tab.innerText('h1')).toBe('Thank you');
    const row = await submissionNamed('Native Upload');
    expect(row).toBeDefined();
    const data = row!.data as unknown as {
      cv: { id: string; name: string };
      photos: Array<{ id: string; name: string; sha256: string }>;
    };
    expect(data.cv.name).toBe('cv.pdf');
    expect(data.photos.map((photo) => photo.name)).toEqual(['a.png', 'b.png']);
    expect(await download(row!.id, data.cv.id)).toEqual(PDF);
    expect(await download(row!.id, data.photos[0].id)).toEqual(photo1);
    expect(await download(row!.id, data.photos[1].id)).toEqual(photo2);
    expect(
      await t.dataSource
        .getRepository(StoredFile)
        .countBy({ submissionId: row!.id }),
    ).toBe(3);
  });
});

// Signed download links in notifications: a submission with a file reaches a real webhook
// receiver (verified with `standardwebhooks`) and a confirmed recipient on a real SMTP
// server, each carrying `url` in the file's value; that link serves the file as an
// attachment to anyone holding it, without a key — and stops working once tampered with
// or once the submission is deleted (404, a page for a browser). A link is a 7-day bearer
// link to a visitor's file, so it never reaches a log line (the request log of
// `GET /files/<token>` included), and it has exactly one spelling — changing the unused
// low bits of its last character makes no second link.
import { createHash } from 'node:crypto';
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { expectPage, expectProblem } from '../../support/answers.js';
import { confirmRecipient } from '../../support/email-recipients.js';
import { errorBody } from '../../support/errors.js';
import { PDF } from '../../support/files.js';
import { request } from '../../support/http.js';
import { TestSmtpServer } from '../../support/smtp-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import {
  addReceiverWebhook,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhook-receiver.js';

const PUBLIC_URL = 'https://forms.example.test';
const FILE_NOT_FOUND = errorBody('File not found');
const OWNER = 'owner@example.com';
const LINK =
  /^https:\/\/forms\.example\.test\/files\/[A-Za-z0-9_-]{22}\.[0-9a-z]+\.[A-Za-z0-9_-]{22}$/;

interface FileValue {
  id: string;
  name: string;
  size: number;
  type: string;
  sha256: string;
  url: string;
}

describe('signed download links in notifications (e2e)', () => {
  let smtp: TestSmtpServer;
  let receiver: WebhookReceiver;
  let t: TestApp;
  let form: TestForm;

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    receiver = await startWebhookReceiver();
    t = await createTestApp({
      env: {
        WEBHOOK_ALLOW_PRIVATE: 'true',
        SMTP_URL: smtp.url,
        MAIL_FROM: 'forms@example.com',
        SUBMIT_RATE_LIMIT: '1000',
        PUBLIC_URL,
      },
    });
    const { account } = await createAccount(t);
    form = await createForm(t, account.id, {
      fields: [
        { id: 'name', type: 'text', required: true },
        { id: 'cv', type: 'file', accept: ['.pdf'] },
      ],
    });
    await addReceiverWebhook(t, form, receiver);
    await confirmRecipient(t, smtp, form, OWNER);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await smtp?.close();
  });

  it('carries a link that downloads the file without a key, until the submission is deleted', async () => {
    const pdf = Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n%%EOF\n');
    const body = new FormData();
    body.set('name', 'Ada');
    body.set('cv', new Blob([pdf]), 'résumé.pdf');
    const submitted = await fetch(`${t.url}/api/submit/${form.form.id}`, {
      method: 'POST',
      headers: { accept: 'application/json' },
      body,
    });
    expect(submitted.status).toBe(200);

    await receiver.waitForSuccesses(1);
    const payload = receiver.received[0].verified as {
      data: { submissionId: string; data: { cv: FileValue } };
    };
    expect(payload).not.toBeNull();
    const cv = payload.data.data.cv;
    expect(cv).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      name: 'résumé.pdf',
      size: pdf.length,
      type: 'application/pdf',
      sha256: createHash('sha256').update(pdf).digest('hex'),
      url: expect.stringMatching(LINK),
    });
    expect(cv.url.startsWith(`${PUBLIC_URL}/files/${cv.id}.`)).toBe(true);
    // PUBLIC_URL is where a proxy would serve this instance: here, the instance itself.
    const link = cv.url.replace(PUBLIC_URL, t.url);
    // The stored submission itself holds no link: links are made for each notification.
    const stored = await request(
      `${t.url}/api/v1/forms/${form.form.id}/submissions/${payload.data.submissionId}`,
      { apiKey: form.apiKey },
    );
    expect(stored.status).toBe(200);
    expect(stored.body.data.cv).not.toHaveProperty('url');

    await smtp.waitForMessages(2);
    const mail = smtp.to(OWNER).at(-1)!;
    expect(mail.parsed.text).toContain(
      `résumé.pdf (${pdf.length} bytes): ${cv.url}`,
    );
    expect(mail.parsed.html).toContain(`<a href="${cv.url}">résumé.pdf</a>`);

    // Anyone holding the link gets the file, as an attachment, without a key.
    const download = await fetch(link);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe(
      'application/octet-stream',
    );
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`,
    );
    expect(Buffer.from(await download.arrayBuffer()).equals(pdf)).toBe(true);

    // A link changed to name another file, or mangled, is refused.
    const [, expires, signature] = cv.url.split('/files/')[1].split('.');
    for (const forged of [
      `${t.url}/files/AAAAAAAAAAAAAAAAAAAAAA.${expires}.${signature}`,
      `${t.url}/files/${cv.id}.${expires}.${signature.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`,
      `${t.url}/files/${cv.id}`,
    ]) {
      expectProblem(await request(forged), 404, FILE_NOT_FOUND);
      // A browser gets a page that says the link is not valid, not that it expired.
      const page = await request(forged, { headers: { accept: 'text/html' } });
      const html = expectPage(page, 404, 'Download link not valid');
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(html).toContain('The link is not valid');
      expect(html).not.toContain('Link expired');
    }

    // Once the submission is deleted, its link finds nothing; a browser gets a page.
    const deleted = await request(
      `${t.url}/api/v1/forms/${form.form.id}/submissions/${payload.data.submissionId}`,
      { apiKey: form.apiKey, method: 'DELETE' },
    );
    expect(deleted.status).toBe(204);
    const gone = await fetch(link, { headers: { accept: 'text/html' } });
    expect(gone.status).toBe(404);
    expect(gone.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await gone.text()).toContain('This download link does not work');
  });

  it('is described in /docs as a route that takes no key', async () => {
    const doc = (await request(`${t.url}/docs-json`)).body as {
      paths: Record<
        string,
        Record<string, { security?: unknown[]; responses: object }>
      >;
    };
    const route = doc.paths['/files/{token}']?.get;
    expect(route).toBeDefined();
    expect(route!.security).toEqual([]);
    expect(Object.keys(route!.responses).sort()).toEqual(['200', '302', '404']);
    // Both shapes of the 404: JSON for scripts, a page for browsers.
    expect(
      Object.keys(
        (route!.responses as Record<string, { content: object }>)['404']
          .content,
      ).sort(),
    ).toEqual(['application/json', 'text/html']);
  });
});

const ALPHABET =
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

describe('signed download links: kept out of logs, one spelling each (e2e)', () => {
  let receiver: WebhookReceiver;
  let t: TestApp;
  let form: TestForm;
  let link: string;
  let token: string;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    t = await createTestApp({
      env: {
        WEBHOOK_ALLOW_PRIVATE: 'true',
        SUBMIT_RATE_LIMIT: '1000',
        PUBLIC_URL,
      },
    });
    const { account } = await createAccount(t);
    form = await createForm(t, account.id, {
      fields: [{ id: 'cv', type: 'file', accept: ['.pdf'] }],
    });
    await addReceiverWebhook(t, form, receiver);
    const body = new FormData();
    body.set('cv', new Blob([PDF]), 'cv.pdf');
    const submitted = await fetch(`${t.url}/api/submit/${form.form.id}`, {
      method: 'POST',
      headers: { accept: 'application/json' },
      body,
    });
    expect(submitted.status).toBe(200);
    await receiver.waitForSuccesses(1);
    const payload = receiver.received[0].verified as {
      data: { data: { cv: { url: string } } };
    };
    const url = payload.data.data.cv.url;
    token = url.split('/files/')[1];
    link = url.replace(PUBLIC_URL, t.url);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('downloads the file and logs the request with the token redacted', async () => {
    const download = await fetch(link);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe(
      'application/octet-stream',
    );
    expect(Buffer.from(await download.arrayBuffer()).equals(PDF)).toBe(true);
    // The same link with its dots percent-encoded reaches the same route.
    const encoded = await fetch(
      link.replace(/\./g, (dot, at: number) =>
        at > link.indexOf('/files/') ? '%2E' : dot,
      ),
    );
    await encoded.arrayBuffer();

    const urls = t.logs
      .map((line) => (JSON.parse(line) as { req?: { url?: string } }).req?.url)
      .filter((url): url is string => url?.includes('iles/') ?? false);
    expect(urls).toContain('/files/[REDACTED]');
    const [, , signature] = token.split('.');
    expect(t.logs.filter((line) => line.includes(signature))).toEqual([]);
    expect(t.logs.filter((line) => line.includes(token))).toEqual([]);
  });

  it('refuses every other spelling of the signature (404), the link itself still works', async () => {
    const last = ALPHABET.indexOf(token.at(-1)!);
    for (const bits of [1, 2, 3]) {
      const variant = link.slice(0, -1) + ALPHABET[last ^ bits];
      expectProblem(await request(variant), 404, FILE_NOT_FOUND);
    }
    const download = await fetch(link);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(PDF)).toBe(true);
  });
});

// A signed download link is a 7-day bearer link to a visitor's file: it never reaches a log
// line (the request log of `GET /files/<token>` included), and it has exactly one
// spelling — changing the unused low bits of its last character makes no second link.
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { PDF } from '../../support/files.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhook-receiver.js';

const PUBLIC_URL = 'https://forms.example.test';
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
    const hook = await request(
      `${t.url}/api/v1/forms/${form.form.id}/webhooks`,
      { apiKey: form.apiKey, json: { url: receiver.url } },
    );
    expect(hook.status).toBe(201);
    receiver.secrets.push(hook.body.secret as string);
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
      const refused = await request(variant);
      expect(refused.status).toBe(404);
      expect(refused.body).toEqual({ error: 'File not found' });
    }
    const download = await fetch(link);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(PDF)).toBe(true);
  });
});

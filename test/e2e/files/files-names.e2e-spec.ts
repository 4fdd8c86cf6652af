// Hostile file names, end to end, under one safe-name rule. Downloads: names with quotes,
// slashes and backslashes, right-to-left overrides and 300 characters are stored under ids
// of the service's own and downloaded with a Content-Disposition no client can misread — a
// plain ASCII `filename` and the real name in `filename*` (RFC 6266 / 8187), without path
// separators, direction marks or control characters, cut to 255 characters with the
// extension kept. Everywhere else: a CR/LF (sent as %0D%0A, as browsers encode it) or a
// right-to-left override is dropped before the row is stored, so the API, the notification
// mail and the dashboard all show the safe name — and a name cannot start a forged line of
// its own in the mail.
import type { FieldDefinition } from '../../../src/forms/form.entity.js';
import { StoredFile } from '../../../src/files/stored-file.entity.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import {
  freshEmail,
  signedInClient,
  type DashboardClient,
} from '../../support/dashboard-client.js';
import { confirmRecipient } from '../../support/email-recipients.js';
import { newestSubmission, png, postParts } from '../../support/files.js';
import { TestSmtpServer } from '../../support/smtp-server.js';
import { ownedAccountId } from '../../support/stored-rows.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const FIELDS: FieldDefinition[] = [
  { id: 'photo', type: 'file', accept: ['image/*'] },
];

/** Parses `filename*=UTF-8''…` back to the name a browser would save. */
function savedName(disposition: string): string {
  const match = /filename\*=UTF-8''([^;\s]+)/.exec(disposition);
  return decodeURIComponent(match?.[1] ?? '');
}

describe('hostile file names (e2e)', () => {
  let t: TestApp;
  let form: TestForm;

  beforeAll(async () => {
    t = await createTestApp({ env: { SUBMIT_RATE_LIMIT: '1000' } });
    const { account } = await createAccount(t);
    form = await createForm(t, account.id, { fields: FIELDS });
  });
  afterAll(async () => {
    await t?.close();
  });

  const long = `${'a'.repeat(296)}.png`;
  const cases: Array<{ sent: string; saved: string; ascii: string }> = [
    {
      // Quotes as browsers send them in a multipart file name (%22).
      sent: 'my %22best%22 photo.png',
      saved: 'my "best" photo.png',
      ascii: 'my _best_ photo.png',
    },
    {
      // A path is never kept: the name is what follows its last separator.
      sent: '../holiday/2026\\..\\beach.png',
      saved: 'beach.png',
      ascii: 'beach.png',
    },
    {
      sent: 'back\\slash%0D%0Aline.png',
      saved: 'slashline.png',
      ascii: 'slashline.png',
    },
    {
      // An RLO would show "invoice\u202Egnp.exe" as "invoiceexe.png".
      sent: 'invoice\u202Egnp.exe.png',
      saved: 'invoicegnp.exe.png',
      ascii: 'invoicegnp.exe.png',
    },
    {
      sent: 'naïve café ☕.png',
      saved: 'naïve café ☕.png',
      ascii: 'na_ve caf_ _.png',
    },
    {
      sent: long,
      saved: `${'a'.repeat(251)}.png`,
      ascii: `${'a'.repeat(251)}.png`,
    },
  ];

  it.each(cases)(
    'downloads "$sent" as a safe attachment',
    async ({ sent, saved, ascii }) => {
      const bytes = png(500);
      const posted = await postParts(t, form.form.id, [
        { name: 'photo', filename: sent, bytes, type: 'image/png' },
      ]);
      expect(posted.status).toBe(200);
      const submission = await newestSubmission<{
        photo: { id: string; name: string };
      }>(t, form);
      const download = await fetch(
        `${t.url}/api/v1/forms/${form.form.id}/submissions/${submission.id}/files/${submission.data.photo.id}`,
        { headers: { 'x-api-key': form.apiKey } },
      );
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe(
        'application/octet-stream',
      );
      expect(download.headers.get('x-content-type-options')).toBe('nosniff');
      const disposition = download.headers.get('content-disposition') ?? '';
      expect(disposition).toBe(
        `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(saved).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`,
      );
      // Only printable ASCII in the header, and the name saved is the safe one.
      expect(disposition).toMatch(/^[\x20-\x7e]+$/);
      expect(savedName(disposition)).toBe(saved);
      expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(
        true,
      );
    },
  );
});

const OWNER = 'names-owner@example.com';
const TEXT = Buffer.from('just some text\n');

describe('control characters and direction marks in file names (e2e)', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  let form: TestForm;
  let email: string;
  let owner: DashboardClient;

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    t = await createTestApp({
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'forms@example.com',
        SUBMIT_RATE_LIMIT: '1000',
        TRUST_PROXY: '127.0.0.1',
      },
    });
    email = freshEmail('names');
    owner = await signedInClient(t.url, '203.0.113.40', email);
    const account = { id: await ownedAccountId(t.dataSource, email) };
    form = await createForm(t, account.id, {
      fields: [{ id: 'doc', type: 'file', accept: ['.txt'], maxFiles: 2 }],
    });
    await confirmRecipient(t, smtp, form, OWNER);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('stores, mails and shows the names without CR/LF or overrides', async () => {
    const mailsBefore = smtp.messages.length;
    const posted = await postParts(t, form.form.id, [
      {
        name: 'doc',
        filename: 'a%0D%0AFake line: ok.txt',
        bytes: TEXT,
        type: 'text/plain',
      },
      {
        name: 'doc',
        filename: 'inv\u202eexe\u2066.txt',
        bytes: TEXT,
        type: 'text/plain',
      },
    ]);
    expect(posted.status).toBe(200);

    const rows = await t.dataSource
      .getRepository(StoredFile)
      .findBy({ formId: form.form.id });
    expect(rows.map((row) => row.name).sort()).toEqual([
      'aFake line: ok.txt',
      'invexe.txt',
    ]);
    const submission = await newestSubmission<{ doc: Array<{ name: string }> }>(
      t,
      form,
    );
    expect(submission.data.doc.map((file) => file.name)).toEqual([
      'aFake line: ok.txt',
      'invexe.txt',
    ]);

    await smtp.waitForMessages(mailsBefore + 1);
    const mail = smtp.to(OWNER).at(-1)!;
    const text = mail.parsed.text ?? '';
    expect(text).toContain('aFake line: ok.txt (15 bytes): ');
    expect(text).toContain('invexe.txt (15 bytes): ');
    expect(text.split('\n').some((line) => line.startsWith('Fake line'))).toBe(
      false,
    );
    expect(text).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(mail.parsed.html).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);

    const page = await owner.get(
      `/dashboard/forms/${form.form.id}/submissions/${submission.id}`,
    );
    expect(page.status).toBe(200);
    expect(page.html).toContain('>aFake line: ok.txt</a>');
    expect(page.html).toContain('>invexe.txt</a>');
    expect(page.html).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  });

  it('shows a name stored before the rule as the safe name on the dashboard', async () => {
    const posted = await postParts(t, form.form.id, [
      { name: 'doc', filename: 'old.txt', bytes: TEXT, type: 'text/plain' },
    ]);
    expect(posted.status).toBe(200);
    const stored = await newestSubmission<{
      doc: Array<Record<string, unknown>>;
    }>(t, form);
    // As an older build stored it: the override kept in the submission's data.
    const data = {
      doc: [{ ...stored.data.doc[0], name: 'old\u202etxt.exe' }],
    };
    await t.dataSource
      .getRepository(Submission)
      .update(
        { id: stored.id },
        { data: data as unknown as Submission['data'] },
      );
    const page = await owner.get(
      `/dashboard/forms/${form.form.id}/submissions/${stored.id}`,
    );
    expect(page.status).toBe(200);
    expect(page.html).toContain('>oldtxt.exe</a>');
    expect(page.html).not.toContain('\u202e');
  });
});

// One safe-name rule for an uploaded file's name, wherever it goes: a CR/LF (sent as %0D%0A,
// as browsers encode it) or a right-to-left override in a name is dropped before the row is
// stored, so the API, the notification mail and the dashboard all show the safe name — and a
// name cannot start a forged line of its own in the mail.
import { ownedAccountId } from '../../support/stored-rows.js';
import { EmailRecipientsService } from '../../../src/notifications/email/email-recipients.service.js';
import { StoredFile } from '../../../src/files/stored-file.entity.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import {
  freshEmail,
  signedInClient,
  type DashboardClient,
} from '../../support/dashboard-client.js';
import { MULTIPART_TYPE, multipart } from '../../support/files.js';
import { request } from '../../support/http.js';
import { TestSmtpServer } from '../../support/smtp-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const OWNER = 'names-owner@example.com';
const CONFIRM = /\/confirm-email\/([A-Za-z0-9_-]{43})/;
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
    const saved = await request(`${t.url}/api/v1/forms/${form.form.id}`, {
      method: 'PATCH',
      apiKey: form.apiKey,
      json: { notifyEmails: [OWNER] },
    });
    expect(saved.status).toBe(200);
    await t.app.get(EmailRecipientsService).settled();
    const token = CONFIRM.exec(smtp.to(OWNER)[0].parsed.text ?? '')![1];
    const confirmed = await request(`${t.url}/confirm-email/${token}`, {
      method: 'POST',
      form: {},
    });
    expect(confirmed.status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('stores, mails and shows the names without CR/LF or overrides', async () => {
    const mailsBefore = smtp.messages.length;
    const posted = await request(`${t.url}/api/submit/${form.form.id}`, {
      body: multipart([
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
      ]),
      headers: { 'content-type': MULTIPART_TYPE, accept: 'application/json' },
    });
    expect(posted.status).toBe(200);

    const rows = await t.dataSource
      .getRepository(StoredFile)
      .findBy({ formId: form.form.id });
    expect(rows.map((row) => row.name).sort()).toEqual([
      'aFake line: ok.txt',
      'invexe.txt',
    ]);
    const listed = await request(
      `${t.url}/api/v1/forms/${form.form.id}/submissions?limit=1`,
      { apiKey: form.apiKey },
    );
    expect(listed.status).toBe(200);
    const submission = listed.body.data[0] as {
      id: string;
      data: { doc: Array<{ name: string }> };
    };
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
    const posted = await request(`${t.url}/api/submit/${form.form.id}`, {
      body: multipart([
        { name: 'doc', filename: 'old.txt', bytes: TEXT, type: 'text/plain' },
      ]),
      headers: { 'content-type': MULTIPART_TYPE, accept: 'application/json' },
    });
    expect(posted.status).toBe(200);
    const listed = await request(
      `${t.url}/api/v1/forms/${form.form.id}/submissions?limit=1`,
      { apiKey: form.apiKey },
    );
    const stored = listed.body.data[0] as {
      id: string;
      data: { doc: Array<Record<string, unknown>> };
    };
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

// The assignee mail (DESIGN 20) through a real SMTP server on loopback: being assigned by
// someone else mails the member's verified address with a link and no visitor text; assigning
// oneself mails nothing; "Mail me when I am assigned" off mails nothing; the caps apply.
import { User } from '../../../src/accounts/user.entity.js';
import { AssignmentMailer } from '../../../src/notifications/email/assignment-mail.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { InboxService } from '../../../src/submissions/inbox/inbox.service.js';
import {
  createAccount,
  createMember,
  type TestAccount,
} from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { request } from '../../support/http.js';
import { TestSmtpServer } from '../../support/smtp-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const PUBLIC_URL = 'https://forms.example.com';

describe('the assignee mail (e2e)', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  let owner: TestAccount;
  let form: TestForm;

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    t = await createTestApp({
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'forms@example.com',
        PUBLIC_URL,
        SUBMIT_RATE_LIMIT: '1000',
      },
    });
    owner = await createAccount(t);
    form = await createForm(t, owner.account.id, { name: 'Leads' });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  async function submission(): Promise<string> {
    const res = await request(`${t.url}/api/submit/${form.form.id}`, {
      json: {
        name: 'Visitor',
        email: 'visitor@example.com',
        message: 'SECRET-VISITOR-TEXT',
      },
    });
    expect(res.status).toBe(200);
    const [row] = await t.dataSource.getRepository(Submission).find({
      where: { formId: form.form.id },
      order: { id: 'DESC' },
      take: 1,
    });
    return row.id;
  }
  const assign = (id: string, assigneeId: string) =>
    request(`${t.url}/api/v1/forms/${form.form.id}/submissions/${id}`, {
      method: 'PATCH',
      apiKey: owner.apiKey,
      json: { assigneeId },
    });
  const settled = () => t.app.get(AssignmentMailer).settled();

  it('mails the assignee when a key assigns them: their address, the form, a link, no visitor text', async () => {
    const member = await createMember(t, owner.account.id, 'editor');
    const id = await submission();
    const before = smtp.messages.length;
    expect((await assign(id, member.id)).status).toBe(200);
    await smtp.waitForMessages(before + 1);
    const mail = smtp.messages[before];
    expect(mail.envelope.to).toEqual([member.email]);
    expect(mail.parsed.subject).toBe(
      'A submission was assigned to you on Formgate',
    );
    const text = mail.parsed.text ?? '';
    expect(text).toContain('"Leads"');
    expect(text).toContain(
      `${PUBLIC_URL}/dashboard/forms/${form.form.id}/submissions/${id}`,
    );
    expect(mail.raw).not.toContain('SECRET-VISITOR-TEXT');
    expect(mail.raw).not.toContain('visitor@example.com');
    // Assigning the same person again mails nothing more.
    expect((await assign(id, member.id)).status).toBe(200);
    await settled();
    expect(smtp.messages.length).toBe(before + 1);
  });

  it('mails nothing to a member who assigns themselves, or who turned it off, or is unverified', async () => {
    const self = await createMember(t, owner.account.id, 'editor');
    const off = await createMember(t, owner.account.id, 'editor');
    await t.dataSource
      .getRepository(User)
      .update({ id: off.id }, { mailOnAssign: false });
    const unverified = await createMember(t, owner.account.id, 'editor');
    await t.dataSource
      .getRepository(User)
      .update({ id: unverified.id }, { emailVerifiedAt: null });
    const before = smtp.messages.length;
    const id = await submission();
    await t.app.get(InboxService).change(
      form.form,
      id,
      { assigneeId: self.id },
      {
        accountId: owner.account.id,
        userId: self.id,
        key: null,
        role: 'editor',
      },
    );
    expect((await assign(await submission(), off.id)).status).toBe(200);
    expect((await assign(await submission(), unverified.id)).status).toBe(200);
    await settled();
    expect(smtp.messages.length).toBe(before);
    const row = await t.dataSource
      .getRepository(Submission)
      .findOneByOrFail({ id });
    expect(row.assigneeId).toBe(self.id);
  });

  it('spends the confirmation-mail budget: beyond 3 a day to one address, nothing is sent', async () => {
    const member = await createMember(t, owner.account.id, 'editor');
    const before = smtp.messages.length;
    for (let i = 0; i < 4; i++) {
      expect((await assign(await submission(), member.id)).status).toBe(200);
      await settled();
    }
    expect(
      smtp.messages
        .slice(before)
        .filter((m) => m.envelope.to[0] === member.email),
    ).toHaveLength(3);
  });
});

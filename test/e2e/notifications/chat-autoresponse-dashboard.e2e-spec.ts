// The dashboard's chat channels section (Notifications tab: list, add, test, remove) and
// the Autoresponse section of a form's settings (saved only with a CAPTCHA, with a preview).
import { AccountsService } from '../../../src/accounts/accounts.service.js';
import { ChatChannel } from '../../../src/notifications/chat/chat-channel.entity.js';
import { Form } from '../../../src/forms/form.entity.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import {
  startChatReceiver,
  type ChatReceiver,
} from '../../support/chat-receiver.js';
import { DashboardClient, sectionOf } from '../../support/dashboard-client.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

describe('chat channels and autoresponse in the dashboard (e2e)', () => {
  let t: TestApp;
  let chat: ChatReceiver;
  let client: DashboardClient;
  let form: TestForm;

  beforeAll(async () => {
    chat = await startChatReceiver();
    t = await createTestApp({
      env: { ...chat.env(), WEBHOOK_RETRY_SCHEDULE: '60' },
    });
  });
  afterAll(async () => {
    await t.close();
    await chat.close();
  });
  beforeEach(async () => {
    client = new DashboardClient(t.url);
    const email = `chat-${Date.now()}-${Math.random()}@example.com`;
    expect((await client.signUp(email)).status).toBe(303);
    const owner = await t.app.get(AccountsService).findByEmail(email);
    form = await createForm(t, owner!.id, { name: 'Leads' });
  });

  it('adds a chat channel, sends a test message, and removes it', async () => {
    const page = `/dashboard/forms/${form.form.id}/notifications`;
    expect(sectionOf((await client.get(page)).html, 'chat-channels')).toContain(
      'No chat channels yet.',
    );
    const refused = await client.post(
      `${page}/chat-channels`,
      {
        kind: 'slack',
        chatName: '#x',
        chatUrl: 'https://evil.example/services/a',
      },
      { from: page },
    );
    expect(refused.status).toBe(400);
    expect(sectionOf(refused.html, 'chat-channels')).toContain(
      'must be a Slack webhook URL',
    );
    const added = await client.post(
      `${page}/chat-channels`,
      { kind: 'slack', chatName: '#sales <b>', chatUrl: chat.urls.slack },
      { from: page },
    );
    expect(added.status).toBe(303);
    const list = sectionOf((await client.get(page)).html, 'chat-channels');
    expect(list).toContain('#sales &lt;b&gt;');
    expect(list).toContain('…0001');
    expect(list).not.toContain('slacksecret0001');
    const [row] = await t.dataSource
      .getRepository(ChatChannel)
      .findBy({ formId: form.form.id });

    const tested = await client.post(
      `${page}/chat-channels/${row.id}/test`,
      {},
      { from: page },
    );
    expect(tested.status).toBe(303);
    await chat.waitFor(1);
    expect(chat.received[0].provider).toBe('slack');

    const removed = await client.post(
      `${page}/chat-channels/${row.id}/delete`,
      {},
      { from: page },
    );
    expect(removed.status).toBe(303);
    expect(
      await t.dataSource.getRepository(ChatChannel).countBy({ id: row.id }),
    ).toBe(0);
    // Without the CSRF token, nothing is added.
    const forged = await client.post(
      `${page}/chat-channels`,
      { kind: 'slack', chatUrl: chat.urls.slack },
      { csrf: 'nope' },
    );
    expect(forged.status).toBe(403);
    expect(
      await t.dataSource
        .getRepository(ChatChannel)
        .countBy({ formId: form.form.id }),
    ).toBe(0);
  });

  it('saves the autoresponse only with a CAPTCHA, and previews it', async () => {
    const settings = `/dashboard/forms/${form.form.id}/settings`;
    const fields = {
      enabled: 'on',
      emailField: 'email',
      subject: 'Thanks <b>',
      text: 'We read every message.',
      replyTo: '',
    };
    const refused = await client.post(`${settings}/autoresponse`, fields, {
      from: settings,
    });
    expect(refused.status).toBe(400);
    expect(sectionOf(refused.html, 'autoresponse')).toContain(
      'only on a form with a CAPTCHA',
    );
    await t.dataSource
      .getRepository(Form)
      .update(
        { id: form.form.id },
        { captcha: { provider: 'altcha' } as never },
      );
    const saved = await client.post(`${settings}/autoresponse`, fields, {
      from: settings,
    });
    expect(saved.status).toBe(303);
    const section = sectionOf(
      (await client.get(settings)).html,
      'autoresponse',
    );
    expect(section).toContain('id="autoresponse-preview"');
    expect(section).toContain('Thanks &lt;b&gt;');
    expect(section).toContain('We read every message.');
    const stored = await t.dataSource
      .getRepository(Form)
      .findOneByOrFail({ id: form.form.id });
    expect(stored.autoresponse).toMatchObject({
      enabled: true,
      emailField: 'email',
      subject: 'Thanks <b>',
    });
  });
});

// Chat channels end to end, against loopback stand-ins that answer as Slack, Discord,
// Teams and Telegram do: the API (write-only secrets, provider hosts only), one message
// per submission and channel in each provider's format with visitor text made inert, a
// throttle answer honoured as the next attempt's time, and a channel the provider calls
// gone turned off with the reason.
import { DataSource } from 'typeorm';
import { ChatChannel } from '../../../src/notifications/chat/chat-channel.entity.js';
import { Delivery } from '../../../src/notifications/deliveries/delivery.entity.js';
import { DeliveryAttempt } from '../../../src/notifications/deliveries/delivery-attempt.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import {
  startChatReceiver,
  type ChatReceiver,
} from '../../support/chat-receiver.js';
import { request } from '../../support/http.js';
import { waitFor } from '../../support/server-process.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const HOSTILE =
  '@everyone @here <!channel> <!here> <@U024BE7LH> **bold** _it_ `code` [x](http://evil.example) <b>html</b> & done';

describe('chat channels (e2e)', () => {
  let t: TestApp;
  let chat: ChatReceiver;
  let form: TestForm;

  beforeEach(async () => {
    chat = await startChatReceiver();
    t = await createTestApp({
      env: {
        ...chat.env(),
        WEBHOOK_RETRY_SCHEDULE: '0.2,0.2,0.2',
        SUBMIT_RATE_LIMIT: '1000',
      },
    });
    const { account } = await createAccount(t);
    form = await createForm(t, account.id, { name: 'Contact <us>' });
  });
  afterEach(async () => {
    await t.close();
    await chat.close();
  });

  const api = (path: string) => `${t.url}/api/v1/forms/${form.form.id}${path}`;
  const deliveries = () => t.app.get(DataSource).getRepository(Delivery);
  const submit = (json: Record<string, unknown>) =>
    request(`${t.url}/api/submit/${form.form.id}`, { json });

  async function add(body: Record<string, unknown>): Promise<string> {
    const created = await request(api('/chat-channels'), {
      apiKey: form.apiKey,
      json: body,
    });
    expect(created.status).toBe(201);
    return created.body.id as string;
  }

  const addAll = async () => ({
    slack: await add({ kind: 'slack', name: '#sales', url: chat.urls.slack }),
    discord: await add({ kind: 'discord', url: chat.urls.discord }),
    teams: await add({ kind: 'teams', url: chat.urls.teams }),
    telegram: await add({
      kind: 'telegram',
      botToken: '123456:telegramsecretABCDEFGHIJ0004',
      chatId: '-100200300',
    }),
  });

  it('keeps URLs and bot tokens write-only: the answer shows the host and their last 4 characters', async () => {
    const created = await request(api('/chat-channels'), {
      apiKey: form.apiKey,
      json: { kind: 'slack', name: '#sales', url: chat.urls.slack },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      kind: 'slack',
      name: '#sales',
      target: `${chat.host} …0001`,
      enabled: true,
      disabledReason: null,
      createdAt: expect.any(String),
      lastDeliveryAt: null,
    });
    const telegram = await request(api('/chat-channels'), {
      apiKey: form.apiKey,
      json: {
        kind: 'telegram',
        botToken: '123456:telegramsecretABCDEFGHIJ0004',
        chatId: '-100200300',
      },
    });
    expect(telegram.status).toBe(201);
    expect(telegram.body.target).toBe(`${chat.host} bot…0004`);
    expect(telegram.body.name).toBe('telegram');

    const listed = await request(api('/chat-channels'), {
      apiKey: form.apiKey,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(2);
    expect(listed.text).not.toContain('slacksecret');
    expect(listed.text).not.toContain('telegramsecret');
    // At rest the secret is sealed, not stored in clear.
    const [row] = await t.dataSource
      .getRepository(ChatChannel)
      .createQueryBuilder('c')
      .addSelect('c.secretEncrypted')
      .where({ id: created.body.id as string })
      .getMany();
    expect(row.secretEncrypted).not.toContain('slacksecret');

    const renamed = await request(api(`/chat-channels/${created.body.id}`), {
      method: 'PATCH',
      apiKey: form.apiKey,
      json: { name: '#leads', enabled: false },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: '#leads', enabled: false });

    const removed = await request(api(`/chat-channels/${created.body.id}`), {
      method: 'DELETE',
      apiKey: form.apiKey,
    });
    expect(removed.status).toBe(204);
    const again = await request(api(`/chat-channels/${created.body.id}`), {
      method: 'PATCH',
      apiKey: form.apiKey,
      json: { name: 'x' },
    });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'Chat channel not found' });
  });

  it('refuses with 400 a URL off the provider hosts, and a body that is not one', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [
        { kind: 'slack', url: 'https://evil.example.com/services/T/B/x' },
        /^url must be a Slack webhook URL/,
      ],
      [
        { kind: 'discord', url: `${chat.base}/webhooks/1/x` },
        /^url must be a Discord webhook URL, under \/api\/webhooks\//,
      ],
      [
        { kind: 'teams', url: 'http://169.254.169.254/latest/meta-data' },
        /^url must be a Microsoft Teams webhook URL/,
      ],
      [{ kind: 'irc', url: chat.urls.slack }, /^kind must be one of/],
      [{ kind: 'slack' }, /^url is required for this kind/],
      [{ kind: 'telegram', chatId: '1' }, /^botToken/],
    ];
    for (const [json, message] of cases) {
      const answer = await request(api('/chat-channels'), {
        apiKey: form.apiKey,
        json,
      });
      expect(answer.status, JSON.stringify(json)).toBe(400);
      expect(answer.body.error).toBe('Validation failed');
      expect(answer.body.errors[0]).toMatch(message);
    }
    expect(await t.dataSource.getRepository(ChatChannel).count()).toBe(0);
  });

  it('posts one message per submission to each channel, in its format, with visitor text inert', async () => {
    await addAll();
    const answer = await submit({
      name: HOSTILE,
      email: 'ada@example.com',
      message: 'x'.repeat(500),
    });
    expect(answer.status).toBe(200);
    await chat.waitFor(4);
    await new Promise((r) => setTimeout(r, 500));
    expect(chat.received).toHaveLength(4);
    const by = Object.fromEntries(chat.received.map((r) => [r.provider, r]));
    const [stored] = await t.dataSource.query<Array<{ id: string }>>(
      'SELECT id FROM submission',
    );
    const link = `${t.config.publicUrl}/dashboard/forms/${form.form.id}/submissions/${stored.id}`;

    // Slack: plain_text objects, & < > escaped: no <!channel>, no <@U…>.
    const slack = by.slack.json as {
      text: string;
      blocks: Array<{ type: string; text?: { type: string; text: string } }>;
    };
    expect(slack.text).toBe('New submission: Contact &lt;us&gt;');
    const nameBlock = slack.blocks.find((b) =>
      b.text?.text.startsWith('Name:'),
    )!;
    expect(nameBlock.text!.type).toBe('plain_text');
    expect(nameBlock.text!.text).toContain('&lt;!channel&gt;');
    expect(nameBlock.text!.text).toContain('&lt;@U024BE7LH&gt;');
    expect(nameBlock.text!.text).toContain('&amp; done');
    expect(by.slack.body).not.toContain('<!channel>');
    expect(by.slack.body).not.toContain('<@U024BE7LH>');
    const messageBlock = slack.blocks.find((b) =>
      b.text?.text.startsWith('Message:'),
    )!;
    expect(messageBlock.text!.text).toBe(`Message: ${'x'.repeat(299)}…`);
    expect(by.slack.body).toContain(link);

    // Discord: no mention is parsed, markdown escaped, @ broken.
    const discord = by.discord.json as {
      allowed_mentions: unknown;
      embeds: Array<{
        url: string;
        fields: Array<{ name: string; value: string }>;
      }>;
    };
    expect(discord.allowed_mentions).toEqual({ parse: [] });
    const field = discord.embeds[0].fields.find((f) => f.name === 'Name')!;
    expect(field.value).toContain('\\*\\*bold\\*\\*');
    expect(field.value).toContain('\\_it\\_');
    expect(field.value).not.toMatch(/@everyone|@here/);
    expect(discord.embeds[0].url).toBe(link);

    // Teams: an Adaptive Card in the Workflows envelope, markdown escaped.
    const teams = by.teams.json as {
      type: string;
      attachments: Array<{
        contentType: string;
        content: {
          type: string;
          body: Array<{
            type: string;
            facts?: Array<{ title: string; value: string }>;
          }>;
        };
      }>;
    };
    expect(teams.type).toBe('message');
    expect(teams.attachments[0].contentType).toBe(
      'application/vnd.microsoft.card.adaptive',
    );
    const facts = teams.attachments[0].content.body.find(
      (b) => b.type === 'FactSet',
    )!.facts!;
    const nameFact = facts.find((f) => f.title === 'Name')!;
    expect(nameFact.value).toContain('\\*\\*bold\\*\\*');
    expect(nameFact.value).toContain('\\<b\\>html\\</b\\>');

    // Telegram: sendMessage in HTML mode with the visitor's text as entities.
    const telegram = by.telegram.json as Record<string, unknown>;
    expect(by.telegram.path).toBe(
      '/bot123456:telegramsecretABCDEFGHIJ0004/sendMessage',
    );
    expect(telegram).toMatchObject({
      chat_id: '-100200300',
      parse_mode: 'HTML',
    });
    const text = telegram.text as string;
    expect(text).toContain('&lt;b&gt;html&lt;/b&gt;');
    expect(text).not.toContain('<b>html</b>');
    expect(text).not.toMatch(/@everyone/);
    expect(text).toContain(`<a href="${link}">`);

    // Each channel's delivery succeeded once and its time shows on the channel.
    await waitFor(
      async () => (await deliveries().countBy({ status: 'succeeded' })) === 4,
      5000,
      'four succeeded deliveries',
    );
    const listed = await request(api('/chat-channels'), {
      apiKey: form.apiKey,
    });
    expect(
      listed.body.data.every(
        (c: { lastDeliveryAt: string | null }) => c.lastDeliveryAt !== null,
      ),
    ).toBe(true);
  });

  it('waits at least as long as a 429 Retry-After asks before the next attempt', async () => {
    for (const kind of ['slack', 'discord', 'telegram'] as const) {
      chat.received.length = 0;
      await t.dataSource.getRepository(ChatChannel).clear();
      const id =
        kind === 'telegram'
          ? await add({
              kind,
              botToken: '123456:telegramsecretABCDEFGHIJ0004',
              chatId: '5',
            })
          : await add({ kind, url: chat.urls[kind] });
      chat.answer = () => (chat.received.length === 0 ? { throttle: 2 } : 'ok');
      expect(
        (await submit({ name: 'Ada', email: 'ada@example.com' })).status,
      ).toBe(200);
      await chat.waitFor(2, 8000);
      const gap = chat.received[1].at - chat.received[0].at;
      expect(gap, kind).toBeGreaterThanOrEqual(2000);
      expect(chat.received.map((r) => r.answered)).toEqual([
        429,
        kind === 'discord' ? 204 : 200,
      ]);
      const channel = await t.dataSource
        .getRepository(ChatChannel)
        .findOneByOrFail({ id });
      expect(channel.enabled).toBe(true);
      await request(api(`/chat-channels/${id}`), {
        method: 'DELETE',
        apiKey: form.apiKey,
      });
    }
  }, 30_000);

  it('turns a channel off with the reason when the provider says it is gone, and sends it nothing more', async () => {
    const ids = await addAll();
    chat.answer = () => 'gone';
    expect(
      (await submit({ name: 'Ada', email: 'ada@example.com' })).status,
    ).toBe(200);
    await chat.waitFor(4);
    await waitFor(
      async () =>
        (await t.dataSource
          .getRepository(ChatChannel)
          .countBy({ enabled: false })) === 4,
      5000,
      'every channel turned off',
    );
    const listed = await request(api('/chat-channels'), {
      apiKey: form.apiKey,
    });
    const reasons = Object.fromEntries(
      listed.body.data.map((c: { kind: string; disabledReason: string }) => [
        c.kind,
        c.disabledReason,
      ]),
    );
    expect(reasons.slack).toMatch(/^Slack answered 404/);
    expect(reasons.discord).toMatch(/^Discord answered 404/);
    expect(reasons.teams).toMatch(/^Microsoft Teams answered 410/);
    expect(reasons.telegram).toMatch(/bot was blocked/);
    // Not retried: each delivery is dead after its one attempt.
    await waitFor(
      async () =>
        (await deliveries().countBy({ channel: 'chat', status: 'dead' })) === 4,
      5000,
      'four dead deliveries',
    );
    const attempts = await t.app
      .get(DataSource)
      .getRepository(DeliveryAttempt)
      .count();
    expect(attempts).toBe(4);

    // Turned off: a new submission makes no delivery for them.
    expect(
      (await submit({ name: 'Bob', email: 'bob@example.com' })).status,
    ).toBe(200);
    await new Promise((r) => setTimeout(r, 800));
    expect(chat.received).toHaveLength(4);
    // Turned on again by the owner: the reason goes.
    const on = await request(api(`/chat-channels/${ids.slack}`), {
      method: 'PATCH',
      apiKey: form.apiKey,
      json: { enabled: true },
    });
    expect(on.body).toMatchObject({ enabled: true, disabledReason: null });
  });

  it('sends a test message on request', async () => {
    const id = await add({ kind: 'discord', url: chat.urls.discord });
    const answer = await request(api(`/chat-channels/${id}/test`), {
      method: 'POST',
      apiKey: form.apiKey,
    });
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({
      channel: 'chat',
      target: id,
      event: 'chat.test',
      status: 'pending',
    });
    await chat.waitFor(1);
    expect(chat.received[0].json.content).toBe(
      'Test message from Formgate: Contact \\<us\\>',
    );
    const listed = await request(api('/deliveries'), { apiKey: form.apiKey });
    expect(listed.status).toBe(200);
  });
});

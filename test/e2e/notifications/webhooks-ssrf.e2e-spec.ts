// The SSRF guard: webhook URLs whose host is or resolves to a loopback, private,
// link-local, IPv4-mapped or IPv4-compatible (::/96) address are refused on save (400),
// with a sentence that never names what a name resolved to (no oracle for internal DNS),
// and a name whose DNS answer turns private after the save is refused at send time, on the
// address actually resolved.
// Names are served by a DNS server on loopback (DNS_SERVERS), as the domain tests do.
import { DataSource } from 'typeorm';
import { DeliveryAttempt } from '../../../src/notifications/deliveries/delivery-attempt.entity.js';
import { Delivery } from '../../../src/notifications/deliveries/delivery.entity.js';
import { Webhook } from '../../../src/notifications/webhooks/webhook.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import {
  startDnsServer,
  type TestDnsServer,
} from '../../support/dns-server.js';
import { request } from '../../support/http.js';
import { waitFor } from '../../support/server-process.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhook-receiver.js';

/** A public address (nothing listens there for the tests: it is never connected to). */
const PUBLIC = '93.184.215.14';

describe('webhook SSRF guard (e2e)', () => {
  let t: TestApp;
  let dns: TestDnsServer;
  let receiver: WebhookReceiver;
  let form: TestForm;

  beforeAll(async () => {
    dns = await startDnsServer();
    t = await createTestApp({
      env: { DNS_SERVERS: dns.address, WEBHOOK_RETRY_SCHEDULE: '60' },
    });
    receiver = await startWebhookReceiver();
    const { account } = await createAccount(t);
    form = await createForm(t, account.id);
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
    await dns.close();
  });
  beforeEach(() => dns.reset());

  const webhookCount = () =>
    t.app
      .get(DataSource)
      .getRepository(Webhook)
      .countBy({ formId: form.form.id });
  const create = (url: string) =>
    request(`${t.url}/api/v1/forms/${form.form.id}/webhooks`, {
      apiKey: form.apiKey,
      json: { url },
    });

  it.each([
    ['http://127.0.0.1:PORT/hook', '127.0.0.1'],
    ['http://[::1]:PORT/hook', '::1'],
    ['http://[::ffff:127.0.0.1]:PORT/hook', '::ffff:7f00:1'],
    // IPv4-compatible IPv6 (::/96), which URL writes without the dotted tail.
    ['http://[::127.0.0.1]:PORT/hook', '::7f00:1'],
    ['http://[::a9fe:a9fe]/latest/meta-data/', '::a9fe:a9fe'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['http://10.0.0.8/hook', '10.0.0.8'],
  ])('refuses %s', async (template, address) => {
    const answer = await create(
      template.replace('PORT', String(receiver.port)),
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: 'Validation failed',
      errors: [
        `url: ${address} is not a public address (private, loopback and link-local targets are refused; set WEBHOOK_ALLOW_PRIVATE=true to allow them on a LAN installation)`,
      ],
    });
    expect(await webhookCount()).toBe(0);
  });

  it.each([
    ['loop.test', ['127.0.0.1']],
    ['ten.test', [PUBLIC, '10.20.30.40']],
    ['metadata.test', ['169.254.169.254']],
    ['six.test', ['::1']],
    ['mapped.test', ['::ffff:127.0.0.1']],
    ['compatible.test', ['::7f00:1']],
  ])(
    'refuses a name that resolves to a private address (%s), without saying which',
    async (name, addresses) => {
      dns.setAddresses(name, addresses);
      const answer = await create(`http://${name}:${receiver.port}/hook`);
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toEqual([
        `url: the host ${name} is not public: it resolves to a private, loopback or link-local address, and such targets are refused (set WEBHOOK_ALLOW_PRIVATE=true to allow them on a LAN installation)`,
      ]);
      for (const address of addresses) {
        expect(JSON.stringify(answer.body)).not.toContain(address);
      }
      expect(await webhookCount()).toBe(0);
    },
  );

  it('refuses a name that does not resolve', async () => {
    const answer = await create('http://nowhere.test/hook');
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([
      'url: the host nowhere.test could not be resolved',
    ]);
  });

  it('refuses at send time a name whose answer turned private after the save', async () => {
    dns.setAddresses('rebind.test', [PUBLIC]);
    const saved = await create(`http://rebind.test:${receiver.port}/hook`);
    expect(saved.status).toBe(201);
    dns.setAddresses('rebind.test', ['127.0.0.1']);
    const submitted = await request(`${t.url}/api/submit/${form.form.id}`, {
      json: { name: 'Ada', email: 'ada@example.com' },
    });
    expect(submitted.status).toBe(200);
    const deliveries = t.app.get(DataSource).getRepository(Delivery);
    await waitFor(
      async () => (await deliveries.findOneBy({}))?.status === 'failed',
      5000,
      'the attempt to fail',
    );
    const delivery = await deliveries.findOneByOrFail({});
    expect(delivery.lastStatusCode).toBeNull();
    expect(delivery.lastError).toBe(
      'the host rebind.test is not public: it resolves to a private, loopback or link-local address, and such targets are refused (set WEBHOOK_ALLOW_PRIVATE=true to allow them on a LAN installation)',
    );
    const attempts = await t.app
      .get(DataSource)
      .getRepository(DeliveryAttempt)
      .findBy({ deliveryId: delivery.id });
    expect(attempts).toHaveLength(1);
    expect(receiver.received).toHaveLength(0);
  });
});

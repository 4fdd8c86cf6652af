// The Notifications tab of a form in the dashboard, over plain HTTP: add a webhook (secret
// shown once), send a test, turn it off and on, rotate, delete; the delivery log with its
// attempts and Retry; CSRF on every post; another owner's form is a 404.
import { DataSource } from 'typeorm';
import { AccountsService } from '../../../src/accounts/accounts.service.js';
import { Delivery } from '../../../src/notifications/deliveries/delivery.entity.js';
import { Webhook } from '../../../src/notifications/webhooks/webhook.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { DashboardClient, textOf } from '../../support/dashboard-client.js';
import { waitFor } from '../../support/server-process.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhook-receiver.js';

describe('dashboard notifications tab (e2e)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let client: DashboardClient;
  let form: TestForm;
  let page: string;

  beforeAll(async () => {
    t = await createTestApp({
      env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '60' },
    });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });
  beforeEach(async () => {
    client = new DashboardClient(t.url);
    const email = `notify-${Date.now()}-${Math.random()}@example.com`;
    expect((await client.signUp(email)).status).toBe(303);
    const owner = await t.app.get(AccountsService).findByEmail(email);
    form = await createForm(t, owner!.id, { name: 'Leads <b>' });
    page = `/dashboard/forms/${form.form.id}/notifications`;
  });

  const webhooks = () => t.app.get(DataSource).getRepository(Webhook);
  const deliveries = () => t.app.get(DataSource).getRepository(Delivery);

  it('adds a webhook, shows its secret once, and sends a test', async () => {
    const overview = await client.get(`/dashboard/forms/${form.form.id}`);
    expect(overview.html).toContain(`href="${page}"`);
    const url = `${receiver.url}?q=<x>`;
    const added = await client.post(
      `${page}/webhooks`,
      { url, description: 'CRM <script>' },
      { from: page },
    );
    expect(added.status).toBe(200);
    const secret = /value="(whsec_[^"]+)"/.exec(added.html)?.[1];
    expect(secret).toMatch(/^whsec_/);
    expect(added.html).toContain('CRM &lt;script&gt;');
    expect(added.html).not.toContain('CRM <script>');
    const [row] = await webhooks().findBy({ formId: form.form.id });
    expect(row.description).toBe('CRM <script>');
    // Shown once: the page read again has no secret.
    expect((await client.get(page)).html).not.toContain('whsec_');

    receiver.secrets.push(secret!);
    const tested = await client.post(
      `${page}/webhooks/${row.id}/test`,
      {},
      { from: page },
    );
    expect(tested.status).toBe(303);
    expect(tested.location).toBe(`${page}?done=test-queued#deliveries`);
    await receiver.waitForSuccesses(1);
    await waitFor(
      async () =>
        (await deliveries().findOneBy({ formId: form.form.id }))?.status ===
        'succeeded',
      5000,
      'the test delivery to succeed',
    );
    const log = textOf((await client.get(page)).html);
    expect(log).toContain('webhook.test');
    expect(log).toContain('succeeded');
    expect(log).toContain('HTTP 200');
  });

  it('refuses a bad URL with the reason on the page', async () => {
    const refused = await client.post(
      `${page}/webhooks`,
      { url: 'ftp://example.com/' },
      { from: page },
    );
    expect(refused.status).toBe(400);
    expect(textOf(refused.html)).toContain(
      'Error: The URL must use http or https',
    );
    expect(await webhooks().countBy({ formId: form.form.id })).toBe(0);
  });

  it('turns a webhook off and on, rotates its secret, retries and deletes', async () => {
    await client.post(
      `${page}/webhooks`,
      { url: receiver.url },
      { from: page },
    );
    const [row] = await webhooks().findBy({ formId: form.form.id });
    const off = await client.post(
      `${page}/webhooks/${row.id}/disable`,
      {},
      { from: page },
    );
    expect(off.status).toBe(303);
    expect((await webhooks().findOneByOrFail({ id: row.id })).enabled).toBe(
      false,
    );
    await client.post(`${page}/webhooks/${row.id}/enable`, {}, { from: page });
    expect((await webhooks().findOneByOrFail({ id: row.id })).enabled).toBe(
      true,
    );
    const rotated = await client.post(
      `${page}/webhooks/${row.id}/rotate`,
      {},
      { from: page },
    );
    expect(rotated.status).toBe(200);
    expect(rotated.html).toMatch(/value="whsec_[^"]+"/);

    // The receiver does not know this webhook's secret: it answers 401.
    await client.post(`${page}/webhooks/${row.id}/test`, {}, { from: page });
    await waitFor(
      async () =>
        (await deliveries().findOneBy({ formId: form.form.id }))?.status ===
        'failed',
      5000,
      'the test delivery to fail',
    );
    const delivery = await deliveries().findOneByOrFail({
      formId: form.form.id,
    });
    expect(textOf((await client.get(page)).html)).toContain('HTTP 401');
    const retried = await client.post(
      `${page}/deliveries/${delivery.id}/retry`,
      {},
      { from: page },
    );
    expect(retried.status).toBe(303);
    expect(retried.location).toBe(`${page}?done=retried#deliveries`);
    expect(
      (await deliveries().findOneByOrFail({ id: delivery.id })).scheduleStart,
    ).toBeGreaterThanOrEqual(1);

    const deleted = await client.post(
      `${page}/webhooks/${row.id}/delete`,
      {},
      { from: page },
    );
    expect(deleted.status).toBe(303);
    expect(await webhooks().countBy({ id: row.id })).toBe(0);
  });

  it('checks CSRF on posts and keeps other owners out', async () => {
    const forged = await client.post(
      `${page}/webhooks`,
      { url: receiver.url },
      { csrf: 'forged' },
    );
    expect(forged.status).toBe(403);
    expect(await webhooks().countBy({ formId: form.form.id })).toBe(0);
    const other = await createAccount(t);
    const theirs = await createForm(t, other.account.id);
    const foreign = await client.get(
      `/dashboard/forms/${theirs.form.id}/notifications`,
    );
    expect(foreign.status).toBe(404);
  });
});

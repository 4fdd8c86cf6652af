// The webhook management API: create (secret once), list, read, patch, delete, the cap of
// 10, rotate, test events, the delivery logs with cursor paging, retry; who may reach what.
import { DataSource } from 'typeorm';
import { ulid } from 'ulid';
import { DeliveryAttempt } from '../../../src/notifications/deliveries/delivery-attempt.entity.js';
import { Delivery } from '../../../src/notifications/deliveries/delivery.entity.js';
import { Webhook } from '../../../src/notifications/webhooks/webhook.entity.js';
import { tooManyWebhooksMessage } from '../../../src/notifications/webhooks/webhooks.service.js';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { insertDelivery } from '../../factories/deliveries.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { expectProblem } from '../../support/answers.js';
import { request } from '../../support/http.js';
import { waitFor } from '../../support/server-process.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhook-receiver.js';

describe('webhooks API (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let form: TestForm;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });
  beforeEach(async () => {
    owner = await createAccount(t);
    form = await createForm(t, owner.account.id);
    receiver.received.length = 0;
    receiver.secrets.length = 0;
  });

  const api = (path = '', formId = form.form.id) =>
    `${t.url}/api/v1/forms/${formId}/webhooks${path}`;
  const repo = () => t.app.get(DataSource).getRepository(Webhook);
  const create = (json: unknown, apiKey = form.apiKey) =>
    request(api(), { apiKey, json });

  it('creates a webhook and shows its secret only on creation', async () => {
    const created = await create({ url: receiver.url, description: ' CRM ' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      url: receiver.url,
      description: 'CRM',
      enabled: true,
      disabledReason: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const stored = await repo()
      .createQueryBuilder('w')
      .addSelect('w.secretEncrypted')
      .where('w.id = :id', { id: created.body.id })
      .getOneOrFail();
    expect(stored.formId).toBe(form.form.id);
    expect(stored.secretEncrypted).not.toContain(
      created.body.secret.slice(6, 20),
    );

    const read = await request(api(`/${created.body.id}`), {
      apiKey: owner.apiKey,
    });
    expect(read.status).toBe(200);
    expect(read.body.secret).toBeUndefined();
    const { secret: _secret, ...listed } = created.body as Record<
      string,
      unknown
    >;
    expect(read.body).toEqual(listed);
    const list = await request(api(), { apiKey: form.apiKey });
    expect(list.body).toEqual({ data: [listed] });
  });

  it('refuses bad bodies with 400 and the reasons', async () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'url is required'],
      [{ url: 42 }, 'url must be a string'],
      [{ url: 'ftp://example.com/' }, 'url must use http or https'],
      [{ url: 'https://a:b@example.com/' }, 'url must not carry a user name'],
      [{ url: receiver.url, enabled: 'yes' }, 'enabled must be true or false'],
      [
        { url: receiver.url, secret: 'mine' },
        'property secret should not exist',
      ],
    ];
    for (const [body, message] of cases) {
      const answer = await create(body);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('Validation failed');
      expect(answer.body.errors.join(' ')).toContain(message);
    }
    expect(await repo().countBy({ formId: form.form.id })).toBe(0);
  });

  it('changes, turns off and deletes a webhook', async () => {
    const { body: hook } = await create({ url: receiver.url });
    const patched = await request(api(`/${hook.id}`), {
      apiKey: form.apiKey,
      method: 'PATCH',
      json: { enabled: false, description: 'paused' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      id: hook.id,
      url: receiver.url,
      enabled: false,
      description: 'paused',
    });
    expect((await repo().findOneByOrFail({ id: hook.id })).enabled).toBe(false);
    const refused = await request(api(`/${hook.id}/test`), {
      apiKey: form.apiKey,
      method: 'POST',
    });
    expect(refused.status).toBe(409);

    const removed = await request(api(`/${hook.id}`), {
      apiKey: form.apiKey,
      method: 'DELETE',
    });
    expect(removed.status).toBe(204);
    expect(await repo().countBy({ id: hook.id })).toBe(0);
    const gone = await request(api(`/${hook.id}`), { apiKey: form.apiKey });
    expectProblem(gone, 404, 'Webhook not found');
  });

  it('deletes the deliveries of a deleted webhook with their attempts, and no other', async () => {
    const { body: hook } = await create({ url: receiver.url });
    const { body: other } = await create({ url: receiver.url });
    const formId = form.form.id;
    const doomed: Delivery[] = [];
    for (let i = 0; i < 3; i++) {
      doomed.push(await insertDelivery(t, { formId, target: hook.id }));
    }
    const kept = await insertDelivery(t, { formId, target: other.id });
    const attempts = t.app.get(DataSource).getRepository(DeliveryAttempt);
    for (const row of [...doomed, kept]) {
      await attempts.insert({
        id: ulid(),
        deliveryId: row.id,
        at: new Date(),
        statusCode: 500,
        error: null,
        durationMs: 1,
      });
    }

    const removed = await request(api(`/${hook.id}`), {
      apiKey: form.apiKey,
      method: 'DELETE',
    });
    expect(removed.status).toBe(204);

    const deliveries = t.app.get(DataSource).getRepository(Delivery);
    expect(await deliveries.findBy({ formId })).toEqual([
      expect.objectContaining({ id: kept.id, target: other.id }),
    ]);
    expect(
      (await attempts.find({ where: {} })).filter((row) =>
        [...doomed, kept].some((d) => d.id === row.deliveryId),
      ),
    ).toEqual([expect.objectContaining({ deliveryId: kept.id })]);
    const log = await request(`${t.url}/api/v1/forms/${formId}/deliveries`, {
      apiKey: form.apiKey,
    });
    expect(log.status).toBe(200);
    expect(log.body.data).toEqual([
      expect.objectContaining({ id: kept.id, target: other.id }),
    ]);
  });

  it('keeps other forms and accounts out', async () => {
    const { body: hook } = await create({ url: receiver.url });
    const sibling = await createForm(t, owner.account.id);
    const stranger = await createAccount(t);
    for (const apiKey of [sibling.apiKey, stranger.apiKey]) {
      const answer = await request(api(`/${hook.id}`), { apiKey });
      expectProblem(answer, 404, 'Form not found');
    }
    // The webhook id under another form of the same account.
    const elsewhere = await request(api(`/${hook.id}`, sibling.form.id), {
      apiKey: owner.apiKey,
    });
    expectProblem(elsewhere, 404, 'Webhook not found');
    expect((await request(api())).status).toBe(401);
  });

  it('holds at most 10 webhooks per form', async () => {
    for (let i = 0; i < 10; i += 1) {
      expect((await create({ url: `${receiver.url}?n=${i}` })).status).toBe(
        201,
      );
    }
    const refused = await create({ url: receiver.url });
    expectProblem(refused, 409, { error: tooManyWebhooksMessage() });
    expect(await repo().countBy({ formId: form.form.id })).toBe(10);
  });

  it('sends a test event at once and pages the delivery log newest first', async () => {
    const { body: hook } = await create({ url: receiver.url });
    receiver.secrets.push(hook.secret as string);
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const queued = await request(api(`/${hook.id}/test`), {
        apiKey: form.apiKey,
        method: 'POST',
      });
      expect(queued.status).toBe(202);
      expect(queued.body).toMatchObject({
        event: 'webhook.test',
        status: 'pending',
        attempts: 0,
        submissionId: null,
      });
      ids.push(queued.body.id as string);
    }
    await receiver.waitForSuccesses(3);
    expect(JSON.parse(receiver.received[0].body)).toEqual({
      type: 'webhook.test',
      timestamp: expect.any(String),
      data: { formId: form.form.id, webhookId: hook.id },
    });
    const deliveries = t.app.get(DataSource).getRepository(Delivery);
    await waitFor(
      async () => (await deliveries.countBy({ status: 'succeeded' })) >= 3,
      5000,
      'three succeeded deliveries',
    );

    const first = await request(api(`/${hook.id}/deliveries?limit=2`), {
      apiKey: form.apiKey,
    });
    expect(first.status).toBe(200);
    expect(first.body.data.map((d: { id: string }) => d.id)).toEqual([
      ids[2],
      ids[1],
    ]);
    expect(first.body.nextCursor).toBe(ids[1]);
    const second = await request(
      api(`/${hook.id}/deliveries?limit=2&cursor=${first.body.nextCursor}`),
      { apiKey: form.apiKey },
    );
    expect(second.body.data.map((d: { id: string }) => d.id)).toEqual([ids[0]]);
    expect(second.body.nextCursor).toBeNull();

    const all = await request(
      `${t.url}/api/v1/forms/${form.form.id}/deliveries`,
      { apiKey: owner.apiKey },
    );
    expect(all.status).toBe(200);
    expect(all.body.data).toHaveLength(3);
    expect(all.body.data[0]).toMatchObject({
      id: ids[2],
      channel: 'webhook',
      target: hook.id,
      status: 'succeeded',
      attempts: 1,
      lastStatusCode: 200,
    });

    for (const query of ['limit=0', 'limit=abc', 'cursor=nonsense']) {
      const bad = await request(api(`/${hook.id}/deliveries?${query}`), {
        apiKey: form.apiKey,
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('Validation failed');
    }
    const retried = await request(
      api(`/${hook.id}/deliveries/${ids[0]}/retry`),
      { apiKey: form.apiKey, method: 'POST' },
    );
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({ id: ids[0], status: 'pending' });
    const unknown = await request(
      api(`/${hook.id}/deliveries/01ARZ3NDEKTSV4RRFFQ69G5FAV/retry`),
      { apiKey: form.apiKey, method: 'POST' },
    );
    expectProblem(unknown, 404, 'Delivery not found');
  });

  it('makes a waiting delivery due now, and refuses to retry one being sent', async () => {
    const { body: hook } = await create({ url: receiver.url });
    receiver.secrets.push(hook.secret);
    const inAnHour = new Date(Date.now() + 3600_000);
    const waiting = await insertDelivery(t, {
      formId: form.form.id,
      target: hook.id,
      nextAttemptAt: inAnHour,
    });
    const retried = await request(
      api(`/${hook.id}/deliveries/${waiting.id}/retry`),
      { apiKey: form.apiKey, method: 'POST' },
    );
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({
      id: waiting.id,
      status: 'pending',
      attempts: 0,
    });
    expect(
      Math.abs(Date.parse(retried.body.nextAttemptAt) - Date.now()),
    ).toBeLessThan(5000);
    await waitFor(
      async () => receiver.received.some((r) => r.id === waiting.id),
      10_000,
      'the retried delivery',
    );
    expect(
      receiver.received.find((r) => r.id === waiting.id)?.verified,
    ).toMatchObject({ type: 'webhook.test' });

    const leaseUntil = new Date(Date.now() + 10_000);
    const sending = await insertDelivery(t, {
      formId: form.form.id,
      target: hook.id,
      leaseOwner: 'another-worker',
      leaseUntil,
      nextAttemptAt: leaseUntil,
    });
    const refused = await request(
      api(`/${hook.id}/deliveries/${sending.id}/retry`),
      { apiKey: form.apiKey, method: 'POST' },
    );
    expectProblem(
      refused,
      409,
      'This delivery is being sent right now: retry once the attempt is recorded',
    );
    const untouched = await t.dataSource
      .getRepository(Delivery)
      .findOneByOrFail({ id: sending.id });
    expect(untouched).toMatchObject({
      status: 'pending',
      leaseOwner: 'another-worker',
    });
    expect(untouched.leaseUntil?.getTime()).toBe(leaseUntil.getTime());
  });

  it('documents every webhook route with its security and error responses', async () => {
    const doc = (await request(`${t.url}/docs-json`)).body;
    const base = '/api/v1/forms/{id}';
    const routes: Array<[string, string, string[]]> = [
      [`${base}/webhooks`, 'get', ['200', '401', '403', '404', '503']],
      [
        `${base}/webhooks`,
        'post',
        ['201', '400', '401', '403', '404', '409', '413', '415', '422', '503'],
      ],
      [
        `${base}/webhooks/{webhookId}`,
        'get',
        ['200', '401', '403', '404', '503'],
      ],
      [
        `${base}/webhooks/{webhookId}`,
        'patch',
        ['200', '400', '401', '403', '404', '413', '415', '503'],
      ],
      [
        `${base}/webhooks/{webhookId}`,
        'delete',
        ['204', '401', '403', '404', '503'],
      ],
      [
        `${base}/webhooks/{webhookId}/rotate-secret`,
        'post',
        ['200', '401', '403', '404', '409', '422', '503'],
      ],
      [
        `${base}/webhooks/{webhookId}/test`,
        'post',
        ['202', '401', '403', '404', '409', '422', '429', '503'],
      ],
      [
        `${base}/webhooks/{webhookId}/deliveries`,
        'get',
        ['200', '400', '401', '403', '404', '503'],
      ],
      [
        `${base}/webhooks/{webhookId}/deliveries/{deliveryId}/retry`,
        'post',
        ['202', '401', '403', '404', '409', '422', '429', '503'],
      ],
      [`${base}/deliveries`, 'get', ['200', '400', '401', '403', '404', '503']],
    ];
    for (const [path, method, statuses] of routes) {
      const operation = doc.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(Object.keys(operation.responses).sort()).toEqual(statuses);
      expect(operation.security).toEqual([
        { apiKeyHeader: [] },
        { apiKeyQuery: [] },
      ]);
    }
    const schemas = doc.components.schemas;
    expect(Object.keys(schemas.WebhookResponseDto.properties).sort()).toEqual([
      'createdAt',
      'description',
      'disabledReason',
      'enabled',
      'id',
      'updatedAt',
      'url',
    ]);
    expect(schemas.CreatedWebhookResponseDto.properties.secret).toBeDefined();
    expect(schemas.CreateWebhookDto.required).toEqual(['url']);
    expect(schemas.DeliveryResponseDto.properties.status.enum).toEqual([
      'pending',
      'succeeded',
      'failed',
      'dead',
    ]);
  });
});

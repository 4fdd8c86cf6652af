// formgate_outbox_events_waiting (docs/operations.md): the commit batches whose
// notifications wait to be made into deliveries — what piles up while the worker steps
// back during a burst, before any of it shows in formgate_delivery_backlog.
import { createAccount } from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import { request } from '../../support/http.js';
import { METRICS_ENV, scrape } from '../../support/metrics.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

describe('outbox events waiting (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    // No worker in this process: what is committed stays in the outbox.
    t = await createTestApp({
      env: {
        ...METRICS_ENV,
        WORKER_ENABLED: 'false',
        WEBHOOK_ALLOW_PRIVATE: 'true',
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('counts each committed batch that notifies, and none for a form that does not', async () => {
    const { account } = await createAccount(t);
    const hooked = await createForm(t, account.id);
    const created = await request(
      `${t.url}/api/v1/forms/${hooked.form.id}/webhooks`,
      { apiKey: hooked.apiKey, json: { url: 'http://127.0.0.1:9/hook' } },
    );
    expect(created.status).toBe(201);
    const quiet = await createForm(t, account.id);
    expect((await scrape(t)).value('formgate_outbox_events_waiting')).toBe(0);

    for (const name of ['Ada', 'Grace']) {
      const answer = await request(`${t.url}/api/submit/${hooked.form.id}`, {
        json: { name, email: 'ada@example.com' },
      });
      expect(answer.status).toBe(200);
    }
    const answer = await request(`${t.url}/api/submit/${quiet.form.id}`, {
      json: { name: 'Edsger', email: 'edsger@example.com' },
    });
    expect(answer.status).toBe(200);

    const s = await scrape(t);
    expect(s.value('formgate_outbox_events_waiting')).toBe(2);
    // Not yet deliveries: the backlog does not show them.
    expect(s.value('formgate_delivery_backlog', { channel: 'webhook' })).toBe(
      0,
    );
  });
});

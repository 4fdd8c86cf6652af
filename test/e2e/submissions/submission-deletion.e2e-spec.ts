// Deleting submissions — one, or a date range — deletes their notification deliveries and
// those deliveries' attempts in the same transaction (the one deletion path that erasure
// and retention use too), and nothing of other submissions.
import { SubmissionDeletionService } from '../../../src/submissions/deletion/submission-deletion.service.js';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { insertSettledDelivery } from '../../factories/deliveries.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { insertSubmissions } from '../../factories/submissions.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

describe('deleting submissions deletes their deliveries (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let form: TestForm;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createAccount(t);
    form = await createForm(t, owner.account.id);
  });
  afterAll(async () => {
    await t.close();
  });

  /** A settled delivery (the worker leaves it alone) with one attempt. */
  function deliveryOf(submissionId: string): Promise<string> {
    return insertSettledDelivery(t, {
      formId: form.form.id,
      submissionId,
      status: 'succeeded',
    });
  }

  async function left(deliveryIds: string[]) {
    const list = deliveryIds.map(() => '?').join(', ');
    const [deliveries] = await t.dataSource.query(
      `SELECT COUNT(*) AS n FROM delivery WHERE id IN (${list})`,
      deliveryIds,
    );
    const [attempts] = await t.dataSource.query(
      `SELECT COUNT(*) AS n FROM delivery_attempt WHERE deliveryId IN (${list})`,
      deliveryIds,
    );
    return { deliveries: Number(deliveries.n), attempts: Number(attempts.n) };
  }

  it('registers the deliveries with the deletion path', () => {
    expect(t.app.get(SubmissionDeletionService).names).toContain('deliveries');
  });

  it('one submission: DELETE …/submissions/:id', async () => {
    const [gone, kept] = await insertSubmissions(t, form.form.id, [
      { createdAt: new Date(Date.now() - 2000) },
      { createdAt: new Date(Date.now() - 1000) },
    ]);
    const goneDelivery = await deliveryOf(gone.id);
    const keptDelivery = await deliveryOf(kept.id);
    const res = await request(
      `${t.url}/api/v1/forms/${form.form.id}/submissions/${gone.id}`,
      { method: 'DELETE', apiKey: form.apiKey },
    );
    expect(res.status).toBe(204);
    expect(await left([goneDelivery])).toEqual({ deliveries: 0, attempts: 0 });
    expect(await left([keptDelivery])).toEqual({ deliveries: 1, attempts: 1 });
  });

  it('a date range: DELETE …/submissions?from&to', async () => {
    const rows = await insertSubmissions(t, form.form.id, [
      { createdAt: new Date('2024-03-01T10:00:00Z') },
      { createdAt: new Date('2024-03-02T10:00:00Z') },
      { createdAt: new Date('2024-04-01T10:00:00Z') },
    ]);
    const deliveries = await Promise.all(rows.map((row) => deliveryOf(row.id)));
    const res = await request(
      `${t.url}/api/v1/forms/${form.form.id}/submissions?from=2024-03-01&to=2024-03-31`,
      { method: 'DELETE', apiKey: form.apiKey },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: 2 });
    expect(await left(deliveries.slice(0, 2))).toEqual({
      deliveries: 0,
      attempts: 0,
    });
    expect(await left(deliveries.slice(2))).toEqual({
      deliveries: 1,
      attempts: 1,
    });
  });
});

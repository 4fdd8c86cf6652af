// The form counters (DESIGN 20): after a mixed run of submits, status changes, spam moves
// and deletions, what the counters say equals a full count of the rows; and a rebuild from
// the rows (counters:rebuild) gives the same.
import { FormCounter } from '../../../src/submissions/counters/form-counter.entity.js';
import { FormCounterRepository } from '../../../src/submissions/counters/form-counter.repository.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

describe('the form counters (e2e)', () => {
  let t: TestApp;
  let form: TestForm;
  let apiKey: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { SUBMIT_RATE_LIMIT: '1000' } });
    const owner = await createAccount(t);
    apiKey = owner.apiKey;
    form = await createForm(t, owner.account.id);
  });
  afterAll(async () => {
    await t?.close();
  });

  const subs = (path = '') =>
    `${t.url}/api/v1/forms/${form.form.id}/submissions${path}`;

  /** The counts as a full pass over the form's rows gives them. */
  async function fullCount() {
    const rows = await t.dataSource
      .getRepository(Submission)
      .findBy({ formId: form.form.id });
    const clean = rows.filter((row) => !row.spam);
    const days = new Map<string, number>();
    for (const row of clean) {
      const day = row.createdAt.toISOString().slice(0, 10);
      days.set(day, (days.get(day) ?? 0) + 1);
    }
    return {
      counts: {
        total: clean.length,
        spam: rows.length - clean.length,
        new: clean.filter((row) => row.status === 'new').length,
        open: clean.filter((row) => row.status === 'open').length,
        closed: clean.filter((row) => row.status === 'closed').length,
      },
      days,
    };
  }

  async function counted() {
    const counters = t.app.get(FormCounterRepository);
    const { lastAt: _lastAt, ...counts } = await counters.countsOf(
      form.form.id,
    );
    const chart = await counters.dailyCounts(form.form.id, 3);
    return {
      counts,
      days: new Map(
        chart.filter((d) => d.count !== 0).map((d) => [d.day, d.count]),
      ),
    };
  }

  it('equal a full count after submits, status changes, spam moves and deletions', async () => {
    for (let i = 0; i < 30; i++) {
      const res = await request(`${t.url}/api/submit/${form.form.id}`, {
        json: { name: `P${i}`, email: `p${i}@example.com`, message: `m ${i}` },
      });
      expect(res.status).toBe(200);
    }
    const ids = (
      await t.dataSource
        .getRepository(Submission)
        .find({ where: { formId: form.form.id }, order: { id: 'ASC' } })
    ).map((row) => row.id);
    expect(ids).toHaveLength(30);
    expect(await counted()).toEqual(await fullCount());

    const patch = (id: string, json: unknown) =>
      request(subs(`/${id}`), { method: 'PATCH', apiKey, json });
    const steps = [
      () => patch(ids[0], { status: 'open' }),
      () => patch(ids[1], { status: 'closed' }),
      () => patch(ids[1], { status: 'closed' }),
      () => patch(ids[2], { spam: true }),
      () => patch(ids[3], { spam: true, status: 'closed' }),
      () => patch(ids[3], { spam: false }),
      () => patch(ids[4], { status: 'open' }),
      () => patch(ids[4], { spam: true }),
      () => request(subs(`/${ids[5]}`), { method: 'DELETE', apiKey }),
      () => request(subs(`/${ids[2]}`), { method: 'DELETE', apiKey }),
      () =>
        request(subs('/bulk'), {
          apiKey,
          json: { ids: ids.slice(6, 12), set: { status: 'closed' } },
        }),
      () =>
        request(subs('/bulk'), {
          apiKey,
          json: { filter: { status: 'new' }, set: { status: 'open' } },
        }),
    ];
    for (const step of steps) {
      expect((await step()).status).toBeLessThan(300);
      expect(await counted()).toEqual(await fullCount());
    }
    const cleared = await request(subs(`?to=2999-01-01`), {
      method: 'DELETE',
      apiKey,
    });
    expect(cleared.status).toBe(200);
    // Some rows of each kind, then the bulk delete of the rest: both compared.
    expect(await counted()).toEqual(await fullCount());
    const after = await fullCount();
    expect(after.counts.total).toBe(0);

    for (let i = 0; i < 5; i++) {
      await request(`${t.url}/api/submit/${form.form.id}`, {
        json: { name: `Q${i}`, email: `q${i}@example.com`, message: 'again' },
      });
    }
    const [first] = (
      await t.dataSource.getRepository(Submission).find({
        where: { formId: form.form.id, spam: false },
        order: { id: 'ASC' },
      })
    ).map((row) => row.id);
    expect((await patch(first, { status: 'closed' })).status).toBe(200);
    expect((await patch(first, { spam: true })).status).toBe(200);
    const now = await fullCount();
    expect(now.counts).toMatchObject({ total: 4, spam: 2, new: 4, closed: 0 });
    expect(await counted()).toEqual(now);
  });

  it('are rebuilt from the rows when they drifted (counters:rebuild)', async () => {
    await t.dataSource
      .getRepository(FormCounter)
      .update({ formId: form.form.id }, { total: 999, newCount: 7 });
    const rebuilt = await t.app
      .get(FormCounterRepository)
      .rebuild(form.form.id);
    const full = await fullCount();
    expect(rebuilt).toMatchObject(full.counts);
    expect(await counted()).toEqual(full);
  });
});

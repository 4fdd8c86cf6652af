// GET /api/v1/account/audit-events and its NDJSON export: admin account keys only, cursor
// paging newest first, the action/actor/target/time filters; the chain stays linear when
// many changes of one account race; verification catches an edited or a deleted row and
// still holds after the retention sweep.
import {
  createAccount,
  createAccountApiKey,
  type TestAccount,
} from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { AuditRetentionSweep } from '../../../src/audit/audit-retention-sweep.js';
import { AuditChainChecker } from '../../../src/audit/audit-chain-checker.js';
import { request, type HttpResponse } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { storedEvents } from './audit-support.js';

const DAY_MS = 86_400_000;

describe('audit events API (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let other: TestAccount;
  let forms: TestForm[];

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createAccount(t);
    other = await createAccount(t);
    forms = [];
    for (let i = 0; i < 3; i++) {
      forms.push(await createForm(t, owner.account.id));
    }
    await createForm(t, other.account.id);
    // Twelve changes through the API, so the events have an actor and a client.
    for (let i = 0; i < 12; i++) {
      const form = forms[i % 3].form;
      const answer = await request(`${t.url}/api/v1/forms/${form.id}`, {
        method: 'PATCH',
        apiKey: owner.apiKey,
        json: { name: `Name ${i}` },
      });
      expect(answer.status).toBe(200);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  const eventsUrl = (query = '') =>
    `${t.url}/api/v1/account/audit-events${query}`;

  it('lists the account’s events newest first, a page at a time', async () => {
    const stored = await storedEvents(t, owner.account.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const answer: HttpResponse<{
        data: { id: string }[];
        nextCursor: string | null;
      }> = await request(
        eventsUrl(`?limit=5${cursor ? `&cursor=${cursor}` : ''}`),
        { apiKey: owner.apiKey },
      );
      expect(answer.status).toBe(200);
      expect(answer.body.data.length).toBeLessThanOrEqual(5);
      seen.push(...answer.body.data.map((event) => event.id));
      cursor = answer.body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(Math.ceil(stored.length / 5));
    expect(seen).toEqual(
      stored
        .map((event) => event.id)
        .sort()
        .reverse(),
    );
    const first = await request(eventsUrl('?limit=1'), {
      apiKey: owner.apiKey,
    });
    expect(first.body.data[0]).toMatchObject({
      action: 'form.updated',
      actor: { type: 'account-key' },
      target: { type: 'form' },
      ip: '127.0.0.1',
    });
    expect(first.body.data[0].hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('filters by action prefix, actor, target and time', async () => {
    const created = await request(eventsUrl('?action=form.c&limit=200'), {
      apiKey: owner.apiKey,
    });
    expect(created.body.data).toHaveLength(3);
    expect(
      created.body.data.every(
        (e: { action: string }) => e.action === 'form.created',
      ),
    ).toBe(true);
    const target = forms[1].form.id;
    const byTarget = await request(
      eventsUrl(`?targetId=${target}&action=form.updated`),
      {
        apiKey: owner.apiKey,
      },
    );
    expect(byTarget.body.data).toHaveLength(4);
    const actorId = byTarget.body.data[0].actor.id;
    const byActor = await request(eventsUrl(`?actorId=${actorId}&limit=200`), {
      apiKey: owner.apiKey,
    });
    expect(byActor.body.data).toHaveLength(12);
    const future = new Date(Date.now() + DAY_MS).toISOString();
    const none = await request(eventsUrl(`?from=${future}`), {
      apiKey: owner.apiKey,
    });
    expect(none.body).toEqual({ data: [], nextCursor: null });
    const before = await request(eventsUrl(`?to=${future}&limit=200`), {
      apiKey: owner.apiKey,
    });
    expect(before.body.data.length).toBe(
      (await storedEvents(t, owner.account.id)).length,
    );
  });

  it('shows no other account’s events', async () => {
    const answer = await request(eventsUrl('?limit=200'), {
      apiKey: other.apiKey,
    });
    expect(answer.status).toBe(200);
    const ownIds = new Set(
      (await storedEvents(t, owner.account.id)).map((e) => e.id),
    );
    expect(answer.body.data.some((e: { id: string }) => ownIds.has(e.id))).toBe(
      false,
    );
  });

  it('refuses bad filters and cursors with a 400', async () => {
    for (const query of [
      '?from=yesterday',
      '?action=DROP%20TABLE',
      '?limit=0',
      '?cursor=zz!',
    ]) {
      const answer = await request(eventsUrl(query), { apiKey: owner.apiKey });
      expect(answer.status).toBe(400);
      expect(typeof answer.body.error).toBe('string');
    }
  });

  it('exports the same filters as NDJSON', async () => {
    const answer = await request(eventsUrl('/export?action=form.updated'), {
      apiKey: owner.apiKey,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain(
      'application/x-ndjson',
    );
    const lines = answer.text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(12);
    expect(lines.every((line) => line.action === 'form.updated')).toBe(true);
  });

  it('answers 403 to keys below admin and to form keys', async () => {
    for (const role of ['developer', 'editor', 'viewer'] as const) {
      const key = await createAccountApiKey(t, owner.account.id, role, role);
      for (const path of ['', '/export']) {
        const answer = await request(eventsUrl(path), { apiKey: key });
        expect(answer.status).toBe(403);
        expect(answer.body).toEqual({
          error: 'This key cannot read the audit log',
        });
      }
    }
    const answer = await request(eventsUrl(), { apiKey: forms[0].apiKey });
    expect(answer.status).toBe(403);
  });

  it('keeps the chain linear when many changes of the account race', async () => {
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        request(`${t.url}/api/v1/forms/${forms[i % 3].form.id}`, {
          method: 'PATCH',
          apiKey: owner.apiKey,
          json: { name: `Race ${i}` },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(
      answers.map(() => 200),
    );
    const events = await storedEvents(t, owner.account.id);
    expect(events.map((event) => event.seq)).toEqual(
      events.map((_, i) => i + 1),
    );
    const report = await t.app.get(AuditChainChecker).verify(owner.account.id);
    expect(report).toMatchObject({
      ok: true,
      chains: [{ events: events.length }],
    });
  });

  it('names the event whose row was edited, or the one after a deleted row', async () => {
    const verification = t.app.get(AuditChainChecker);
    expect((await verification.verify()).ok).toBe(true);
    const events = await storedEvents(t, owner.account.id);
    const middle = events[Math.floor(events.length / 2)];
    const original = JSON.stringify(middle.details);
    await t.dataSource.query(
      'UPDATE audit_event SET details = ? WHERE id = ?',
      [JSON.stringify({ name: { before: 'x', after: 'forged' } }), middle.id],
    );
    let report = await verification.verify(owner.account.id);
    expect(report.ok).toBe(false);
    expect(report.chains[0].failure).toContain(`event ${middle.id}`);
    await t.dataSource.query(
      'UPDATE audit_event SET details = ? WHERE id = ?',
      [original, middle.id],
    );
    expect((await verification.verify(owner.account.id)).ok).toBe(true);
    const next = events[events.indexOf(middle) + 1];
    await t.dataSource.query('DELETE FROM audit_event WHERE id = ?', [
      middle.id,
    ]);
    report = await verification.verify(owner.account.id);
    expect(report.ok).toBe(false);
    expect(report.chains[0].failure).toContain(`event ${next.id}`);
    // The other account's chain is untouched.
    expect((await verification.verify(other.account.id)).ok).toBe(true);
  });

  it('still verifies after the retention sweep deleted the oldest events', async () => {
    const account = await createAccount(t);
    const { form } = await createForm(t, account.account.id);
    for (let i = 0; i < 5; i++) {
      await request(`${t.url}/api/v1/forms/${form.id}`, {
        method: 'PATCH',
        apiKey: account.apiKey,
        json: { name: `Old ${i}` },
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
    const boundary = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (let i = 0; i < 3; i++) {
      await request(`${t.url}/api/v1/forms/${form.id}`, {
        method: 'PATCH',
        apiKey: account.apiKey,
        json: { name: `New ${i}` },
      });
    }
    const before = await storedEvents(t, account.account.id);
    const old = before.filter(
      (event) =>
        event.details.name &&
        String((event.details.name as { after: string }).after).startsWith(
          'Old',
        ),
    );
    const result = await t.app
      .get(AuditRetentionSweep)
      .sweepOnce(boundary + t.config.auditRetentionDays * DAY_MS);
    expect(result.events).toBeGreaterThanOrEqual(old.length);
    const after = await storedEvents(t, account.account.id);
    expect(after.map((event) => event.details)).toEqual(
      [0, 1, 2].map((i) => ({
        name: { before: i === 0 ? 'Old 4' : `New ${i - 1}`, after: `New ${i}` },
      })),
    );
    const report = await t.app
      .get(AuditChainChecker)
      .verify(account.account.id);
    expect(report).toMatchObject({ ok: true, chains: [{ events: 3 }] });
    const [chain] = await t.dataSource.query(
      'SELECT anchorSeq FROM audit_chain WHERE accountId = ?',
      [account.account.id],
    );
    expect(Number(chain.anchorSeq)).toBe(before.length - 3);
  });
});

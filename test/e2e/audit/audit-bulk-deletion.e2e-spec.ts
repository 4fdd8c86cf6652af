// A bulk delete is one change and one audit event, however many batches of 1,000 it takes:
// over the API by range, in the dashboard by range and by selection, each with its actor and
// the count. A refused bulk delete is none; one that fails partway keeps one event saying
// what its committed batches deleted; and an event left open by a process that died is
// chained by the audit sweep once it has been idle (docs/audit.md#changes-in-batches).
import { AuditChainChecker } from '../../../src/audit/audit-chain-checker.js';
import { AuditLogService } from '../../../src/audit/audit-log.service.js';
import { AuditRetentionSweep } from '../../../src/audit/audit-retention-sweep.js';
import { RUN_IDLE_MS } from '../../../src/audit/audit-run.js';
import { memberActor } from '../../../src/audit/audit-actor.js';
import { SubmissionDeletionService } from '../../../src/submissions/deletion/submission-deletion.service.js';
import { SubmissionsService } from '../../../src/submissions/submissions.service.js';
import {
  createAccount,
  createAccountApiKey,
  createMember,
  type TestAccount,
} from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import { insertSubmissions } from '../../factories/submissions.js';
import { csrfOf, DashboardClient } from '../../support/dashboard-client.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import {
  eventsSince,
  storedEvents,
  type StoredEvent,
} from './audit-support.js';

const DAY_MS = 86_400_000;

describe('audit events of bulk deletes (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;
  /** A dependent of the deletion that fails the batch it is told to. */
  let failBatch = 0;
  let batchesSeen = 0;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createAccount(t);
    t.app.get(SubmissionDeletionService).register({
      name: 'test-failure',
      deleteWith: () => {
        batchesSeen++;
        if (failBatch !== 0 && batchesSeen === failBatch) {
          return Promise.reject(new Error('the database went away'));
        }
        return Promise.resolve();
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const api = (path: string) => `${t.url}/api/v1${path}`;

  async function eventsOf(
    change: () => Promise<unknown>,
  ): Promise<StoredEvent[]> {
    const before = (await storedEvents(t, owner.account.id)).length;
    await change();
    return eventsSince(t, owner.account.id, before);
  }

  /** `count` submissions of a new form, a minute apart from `start`. */
  async function formWith(count: number, start = Date.UTC(2026, 0, 1)) {
    const made = await createForm(t, owner.account.id);
    const rows = await insertSubmissions(
      t,
      made.form.id,
      Array.from({ length: count }, (_, n) => ({
        createdAt: new Date(start + n * 60_000),
      })),
    );
    return { made, rows };
  }

  async function left(formId: string): Promise<number> {
    const [row] = await t.dataSource.query<{ n: number | string }[]>(
      'SELECT COUNT(*) AS n FROM submission WHERE formId = ?',
      [formId],
    );
    return Number(row.n);
  }

  async function openEvents(): Promise<number> {
    const [row] = await t.dataSource.query<{ n: number | string }[]>(
      'SELECT COUNT(*) AS n FROM audit_open_event',
    );
    return Number(row.n);
  }

  it('makes one event with the count when 2,500 submissions are deleted over the API', async () => {
    const { made } = await formWith(2500);
    const events = await eventsOf(async () => {
      const answer = await request(api(`/forms/${made.form.id}/submissions`), {
        method: 'DELETE',
        apiKey: owner.apiKey,
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ deleted: 2500 });
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'submissions.deleted',
      actorType: 'account-key',
      targetType: 'form',
      targetId: made.form.id,
      details: { count: 2500, from: null, to: null, spam: false },
    });
    expect(events[0].details).not.toHaveProperty('interrupted');
    expect(await left(made.form.id)).toBe(0);
    expect(await openEvents()).toBe(0);
    expect((await t.app.get(AuditChainChecker).verify()).ok).toBe(true);
  });

  it('makes one event for a range deleted in the dashboard, its actor the member', async () => {
    const { made } = await formWith(1500);
    const client = new DashboardClient(t.url);
    client.headers['user-agent'] = 'bulk-browser/1';
    expect((await client.logIn(owner.user.email)).status).toBe(303);
    const base = `/dashboard/forms/${made.form.id}/submissions`;
    const events = await eventsOf(async () => {
      // The first 1,200 of the form's 1,500 (a minute apart from 2026-01-01).
      const page = await client.post(
        `${base}/delete`,
        { from: '2026-01-01T00:00', to: '2026-01-01T20:00' },
        { from: `${base}/delete?from=2026-01-01T00:00&to=2026-01-01T20:00` },
      );
      expect(page.status).toBe(303);
      expect(page.location).toContain('deleted=1200');
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'submissions.deleted',
      actorType: 'member',
      actorId: owner.user.id,
      actorLabel: owner.user.email,
      userAgent: 'bulk-browser/1',
      targetId: made.form.id,
      details: { count: 1200, spam: false },
    });
    expect(await left(made.form.id)).toBe(300);
  });

  it('makes one event for the selected submissions deleted in the dashboard, listing them', async () => {
    const { made, rows } = await formWith(4);
    const editor = await createMember(t, owner.account.id, 'editor');
    const client = new DashboardClient(t.url);
    expect((await client.logIn(editor.email)).status).toBe(303);
    const base = `/dashboard/forms/${made.form.id}/submissions`;
    const chosen = [rows[0].id, rows[2].id, '01JUNKNOWNSUBMISSION000000'];
    const events = await eventsOf(async () => {
      const confirm = await client.post(
        `${base}/bulk`,
        [
          ...chosen.map((id): [string, string] => ['ids', id]),
          ['action', 'delete'],
        ],
        { from: `/dashboard/forms/${made.form.id}` },
      );
      expect(confirm.status).toBe(200);
      const deleted = await client.post(
        `${base}/bulk-delete`,
        chosen.map((id): [string, string] => ['ids', id]),
        { csrf: csrfOf(confirm.html) },
      );
      expect(deleted.status).toBe(303);
      expect(deleted.location).toContain('deleted=2');
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'submissions.deleted',
      actorType: 'member',
      actorId: editor.id,
      actorLabel: editor.email,
      targetId: made.form.id,
      details: { count: 2, ids: chosen },
    });
    expect(await left(made.form.id)).toBe(2);
  });

  it('makes none for a refused or invalid bulk delete, nor for one that finds nothing', async () => {
    const { made } = await formWith(3);
    const viewerKey = await createAccountApiKey(
      t,
      owner.account.id,
      'reader',
      'viewer',
    );
    const path = api(`/forms/${made.form.id}/submissions`);
    const events = await eventsOf(async () => {
      const refused = await request(path, {
        method: 'DELETE',
        apiKey: viewerKey,
      });
      expect(refused.status).toBe(403);
      const invalid = await request(`${path}?from=someday`, {
        method: 'DELETE',
        apiKey: owner.apiKey,
      });
      expect(invalid.status).toBe(400);
      const none = await request(`${path}?to=2020-01-01T00:00:00Z`, {
        method: 'DELETE',
        apiKey: owner.apiKey,
      });
      expect(none.status).toBe(200);
      expect(none.body).toEqual({ deleted: 0 });
    });
    expect(events).toEqual([]);
    expect(await left(made.form.id)).toBe(3);
  });

  it('keeps one event of what the committed batches deleted when a later batch fails', async () => {
    const { made } = await formWith(2500);
    batchesSeen = 0;
    failBatch = 2;
    try {
      const events = await eventsOf(async () => {
        await expect(
          t.app
            .get(SubmissionsService)
            .removeMany(
              made.form,
              {},
              memberActor(owner.user.id, owner.user.email),
            ),
        ).rejects.toThrow('the database went away');
      });
      // The first batch committed; the second rolled back, and with it its part of the event.
      expect(await left(made.form.id)).toBe(1500);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        action: 'submissions.deleted',
        actorType: 'member',
        actorId: owner.user.id,
        targetId: made.form.id,
        details: { count: 1000, interrupted: true },
      });
      expect(await openEvents()).toBe(0);
    } finally {
      failBatch = 0;
    }
    expect((await t.app.get(AuditChainChecker).verify()).ok).toBe(true);
  });

  it('chains an event its process left open once it has been idle, with what was committed', async () => {
    const auditLog = t.app.get(AuditLogService);
    const run = auditLog.openRun({
      accountId: owner.account.id,
      actor: memberActor(owner.user.id, owner.user.email),
      action: 'submissions.deleted',
      target: { type: 'form', id: 'form-of-a-dead-run' },
    });
    // Two batches committed, then the process "died": the run is never finished.
    for (const count of [1000, 2000]) {
      await auditLog.transaction((manager) => run.step(manager, { count }));
    }
    expect(await openEvents()).toBe(1);
    const sweep = t.app.get(AuditRetentionSweep);
    const early = await eventsOf(() => sweep.sweepOnce(Date.now()));
    expect(early).toEqual([]);
    const later = Date.now() + RUN_IDLE_MS + 1000;
    const events = await eventsOf(async () => {
      expect(await sweep.sweepOnce(later)).toMatchObject({ interrupted: 1 });
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'submissions.deleted',
      actorType: 'member',
      actorId: owner.user.id,
      targetId: 'form-of-a-dead-run',
      details: { count: 2000, interrupted: true },
    });
    expect(Date.parse(String(events[0].details.startedAt))).toBeGreaterThan(
      Date.now() - DAY_MS,
    );
    expect(await openEvents()).toBe(0);
    expect(await sweep.sweepOnce(later)).toMatchObject({ interrupted: 0 });
    expect((await t.app.get(AuditChainChecker).verify()).ok).toBe(true);
  });
});

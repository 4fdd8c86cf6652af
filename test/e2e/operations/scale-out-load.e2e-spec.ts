// Three instances, one service, under load: submissions spread over three processes of the
// built server (one MySQL/MariaDB, one Redis, nginx in front, all on loopback) are each
// notified once by the instances' shared workers, and an instance killed with SIGKILL while
// submissions pour in loses none that was acknowledged, while the proxy keeps serving.
// Requests go "through the proxy" unless a step says otherwise; each client is a loopback
// address of its own (see test/support/cluster-clients.ts).
import { newClient, submit } from '../../support/cluster-clients.js';
import {
  describeCluster,
  RATE_LIMIT,
  TEST_TIMEOUT_MS,
  useCluster,
  VALID,
} from '../../support/cluster-fixture.js';
import { waitFor } from '../../support/server-process.js';
import { startWebhookReceiver } from '../../support/webhook-receiver.js';

interface Delivery {
  id: string;
  event: string;
  submissionId: string;
  status: string;
  attempts: number;
}

interface WebhookBody {
  type: string;
  data: { formId: string; submissionId: string; data: { n: string } };
}

const SUBMISSIONS = 300;
/** Requests at once: enough that every instance is busy, few enough for a 2-core machine. */
const LANES = 8;

describeCluster(
  'three instances behind a reverse proxy under load (e2e, server processes)',
  () => {
    const t = useCluster();

    /** Every delivery of the form, through the proxy, page by page. */
    async function deliveries(formId: string): Promise<Delivery[]> {
      const all: Delivery[] = [];
      let cursor = '';
      do {
        const res = await t.api(
          t.proxy,
          `/forms/${formId}/deliveries?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          t.owner.apiKey,
        );
        expect(res.status).toBe(200);
        all.push(...(res.body.data as Delivery[]));
        cursor = res.body.nextCursor ?? '';
      } while (cursor);
      return all;
    }

    it(
      `notifies each of ${SUBMISSIONS} submissions spread over the instances exactly once per webhook-id`,
      async () => {
        const receiver = await startWebhookReceiver();
        try {
          const form = await t.createForm('Hooked');
          const hook = await t.api(
            t.proxy,
            `/forms/${form.id}/webhooks`,
            t.owner.apiKey,
            { json: { url: receiver.url } },
          );
          expect(hook.status).toBe(201);
          receiver.secrets.push(hook.body.secret as string);
          // Visitors enough that none reaches the rate limit.
          const clients = Array.from(
            { length: Math.ceil(SUBMISSIONS / (RATE_LIMIT - 5)) },
            newClient,
          );
          const answeredBy = new Map<string, number>();
          let next = 0;
          await Promise.all(
            Array.from({ length: LANES }, async () => {
              for (let n = next++; n < SUBMISSIONS; n = next++) {
                const res = await submit(
                  t.proxy,
                  form.id,
                  clients[n % clients.length],
                  { ...VALID, n: String(n) },
                );
                expect(res.status, `submission ${n}`).toBe(200);
                const by = t.cluster.answeredBy(res)!.name;
                answeredBy.set(by, (answeredBy.get(by) ?? 0) + 1);
              }
            }),
          );
          // Round robin: each instance took its share.
          expect([...answeredBy.keys()].sort()).toEqual(['a', 'b', 'c']);
          for (const [name, count] of answeredBy) {
            expect(count, `answered by ${name}`).toBeGreaterThanOrEqual(
              SUBMISSIONS / 6,
            );
          }
          const stored = await t.storedSubmissions(form.id);
          expect(stored).toHaveLength(SUBMISSIONS);

          await receiver.waitForSuccesses(SUBMISSIONS, 60_000);
          // Settled: every delivery succeeded at its first attempt, so nothing more is sent.
          let settled: Delivery[] = [];
          await waitFor(
            async () => {
              settled = await deliveries(form.id);
              return (
                settled.length === SUBMISSIONS &&
                settled.every((d) => d.status === 'succeeded')
              );
            },
            30_000,
            'every delivery to succeed',
          );
          expect(settled.every((d) => d.attempts === 1)).toBe(true);
          expect(settled.every((d) => d.event === 'submission.created')).toBe(
            true,
          );

          // Exactly one request per delivery, each verified with the webhook's secret.
          const received = receiver.received;
          const arrivals = new Map<string, number[]>();
          for (const r of received) {
            arrivals.set(r.id, [...(arrivals.get(r.id) ?? []), r.at]);
          }
          expect(
            [...arrivals].filter(([, at]) => at.length > 1),
            'webhook-ids sent more than once, with the times they arrived',
          ).toEqual([]);
          expect(received).toHaveLength(SUBMISSIONS);
          expect(received.every((r) => r.verified !== null)).toBe(true);
          expect(received.every((r) => r.answered === 200)).toBe(true);
          expect(new Set(received.map((r) => r.id)).size).toBe(SUBMISSIONS);
          expect(received.map((r) => r.id).sort()).toEqual(
            settled.map((d) => d.id).sort(),
          );
          expect(receiver.maxSameIdInFlight).toBe(1);
          // One per stored submission, carrying what was submitted.
          const bodies = received.map((r) => r.verified as WebhookBody);
          expect(bodies.every((b) => b.type === 'submission.created')).toBe(
            true,
          );
          expect(bodies.every((b) => b.data.formId === form.id)).toBe(true);
          expect(bodies.map((b) => b.data.submissionId).sort()).toEqual(
            stored.map((s) => s.id).sort(),
          );
          expect(
            bodies.map((b) => Number(b.data.data.n)).sort((x, y) => x - y),
          ).toEqual(Array.from({ length: SUBMISSIONS }, (_, n) => n));
        } finally {
          await receiver.close();
        }
      },
      TEST_TIMEOUT_MS,
    );

    // Last: it leaves instance b dead.
    it(
      'loses no acknowledged submission when an instance is killed (SIGKILL) under load, and the proxy keeps serving',
      async () => {
        const form = await t.createForm('Durable');
        const victim = t.cluster.instances[1];
        const clients = Array.from({ length: 40 }, newClient);
        const KILL_AFTER = 60;
        const AFTER_DEATH = 150;
        interface Result {
          n: number;
          status: number;
          startedAt: number;
          by?: string;
        }
        const results: Result[] = [];
        let acknowledged = 0;
        let diedAt = Infinity;
        let startedAfterDeath = 0;
        let next = 0;
        const died = victim.process.exited.then(() => {
          diedAt = performance.now();
        });
        await Promise.all(
          Array.from({ length: LANES }, async () => {
            while (startedAfterDeath < AFTER_DEATH) {
              const n = next++;
              const startedAt = performance.now();
              if (startedAt > diedAt) startedAfterDeath += 1;
              const res = await submit(t.proxy, form.id, clients[n % 40], {
                ...VALID,
                n: String(n),
              });
              results.push({
                n,
                status: res.status,
                startedAt,
                by: t.cluster.answeredBy(res)?.name,
              });
              if (res.status === 200) acknowledged += 1;
              if (acknowledged === KILL_AFTER) {
                victim.process.child.kill('SIGKILL');
              }
            }
          }),
        );
        await died;
        expect(victim.process.child.signalCode).toBe('SIGKILL');
        const before = results.filter((r) => r.startedAt < diedAt);
        const after = results.filter((r) => r.startedAt > diedAt);
        // The victim served its share before it died.
        expect(before.some((r) => r.by === victim.name)).toBe(true);

        // The proxy kept serving: every request sent after the instance died was answered
        // 200 by another one (nginx found the port closed and passed the request on).
        expect(after.length).toBeGreaterThanOrEqual(AFTER_DEATH);
        expect(after.filter((r) => r.status !== 200)).toEqual([]);
        expect(new Set(after.map((r) => r.by))).toEqual(new Set(['a', 'c']));
        // Passive health: the failures took the instance out of the rotation.
        expect(t.cluster.proxy.log()).toMatch(
          new RegExp(
            `upstream server temporarily disabled .*upstream: "http://${victim.address}/`,
          ),
        );
        // What failed was in flight at the victim when it died: 502 from the proxy, never sent on.
        for (const failed of results.filter((r) => r.status !== 200)) {
          expect(failed.startedAt).toBeLessThan(diedAt);
          expect(failed.status).toBe(502);
        }

        // No acknowledged submission is missing, and none was stored twice.
        const stored = (await t.storedSubmissions(form.id)).map((s) =>
          Number(s.data.n),
        );
        const missing = results
          .filter((r) => r.status === 200 && !stored.includes(r.n))
          .map((r) => r.n);
        expect(missing).toEqual([]);
        expect(new Set(stored).size).toBe(stored.length);
      },
      TEST_TIMEOUT_MS,
    );
  },
);

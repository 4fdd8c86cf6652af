// A webhook receiver on loopback, as an owner would run one: every request is verified
// with the `standardwebhooks` package (an independent implementation of the specification),
// and answered as the test says (by default 200).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import type { TestForm } from '../factories/forms.js';
import { request } from './http.js';
import type { TestApp } from './test-app.js';

export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  signature: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The parsed body when the signature verified against one of the secrets, else null. */
  verified: unknown;
  /** The status this receiver answered. */
  answered: number;
  at: number;
}

export interface WebhookReceiver {
  /** http://127.0.0.1:PORT/hook */
  url: string;
  port: number;
  received: ReceivedWebhook[];
  /** Secrets any of which may verify a request (set after creating the webhook). */
  secrets: string[];
  /** How to answer the n-th request (0-based); default 200. */
  answer: (n: number, body: string) => number | Promise<number>;
  /** Requests currently being answered (for concurrency checks). */
  open: Map<string, number>;
  /** Most requests that carried the same webhook-id while open at once. */
  maxSameIdInFlight: number;
  /** Most requests open at once, whatever their id. */
  maxOpen: number;
  /** Most requests open at once per request path (one webhook each, when their paths differ). */
  maxOpenByPath: Map<string, number>;
  /** Requests being answered right now. */
  openNow(): number;
  /** Resolves once `count` requests verified and were answered 2xx. */
  waitForSuccesses(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(
  options: { delayMs?: number } = {},
): Promise<WebhookReceiver> {
  const receiver = {
    received: [] as ReceivedWebhook[],
    secrets: [] as string[],
    answer: (() => 200) as WebhookReceiver['answer'],
    open: new Map<string, number>(),
    maxSameIdInFlight: 0,
    maxOpen: 0,
    maxOpenByPath: new Map(),
  } as WebhookReceiver;
  let served = 0;
  let open = 0;
  const openByPath = new Map<string, number>();
  receiver.openNow = () => open;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const header = (name: string) => String(req.headers[name] ?? '');
        const id = header('webhook-id');
        const inFlight = (receiver.open.get(id) ?? 0) + 1;
        receiver.open.set(id, inFlight);
        open += 1;
        receiver.maxOpen = Math.max(receiver.maxOpen, open);
        const path = req.url ?? '';
        const onPath = (openByPath.get(path) ?? 0) + 1;
        openByPath.set(path, onPath);
        receiver.maxOpenByPath.set(
          path,
          Math.max(receiver.maxOpenByPath.get(path) ?? 0, onPath),
        );
        receiver.maxSameIdInFlight = Math.max(
          receiver.maxSameIdInFlight,
          inFlight,
        );
        let verified: unknown = null;
        for (const secret of receiver.secrets) {
          try {
            verified = new StandardWebhook(secret).verify(body, {
              'webhook-id': id,
              'webhook-timestamp': header('webhook-timestamp'),
              'webhook-signature': header('webhook-signature'),
            });
            break;
          } catch {
            // Try the next secret.
          }
        }
        const n = served++;
        if (options.delayMs) {
          await new Promise((r) => setTimeout(r, options.delayMs));
        }
        const status = verified === null ? 401 : await receiver.answer(n, body);
        receiver.received.push({
          id,
          timestamp: header('webhook-timestamp'),
          signature: header('webhook-signature'),
          headers: req.headers,
          body,
          verified,
          answered: status,
          at: Date.now(),
        });
        receiver.open.set(id, (receiver.open.get(id) ?? 1) - 1);
        open -= 1;
        openByPath.set(path, (openByPath.get(path) ?? 1) - 1);
        res.writeHead(status, { 'content-type': 'text/plain' });
        res.end(status < 300 ? 'ok' : `nope ${status}`);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  receiver.port = port;
  receiver.url = `http://127.0.0.1:${port}/hook`;
  receiver.waitForSuccesses = async (count, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    const successes = () =>
      receiver.received.filter((r) => r.verified !== null && r.answered < 300)
        .length;
    while (successes() < count) {
      if (Date.now() > deadline) {
        throw new Error(
          `Timed out waiting for ${count} successful webhooks (got ${successes()} of ${receiver.received.length} requests)`,
        );
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

/**
 * Adds a webhook of `form` that posts to the receiver (`url`, by default the receiver's own)
 * through the API, and hands its signing secret to the receiver. Returns the webhook's id.
 */
export async function addReceiverWebhook(
  t: TestApp,
  form: TestForm,
  receiver: WebhookReceiver,
  json: { url?: string; description?: string } = {},
): Promise<string> {
  const created = await request(
    `${t.url}/api/v1/forms/${form.form.id}/webhooks`,
    { apiKey: form.apiKey, json: { url: receiver.url, ...json } },
  );
  expect(created.status).toBe(201);
  receiver.secrets.push(created.body.secret as string);
  return created.body.id as string;
}

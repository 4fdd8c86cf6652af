// The raw sender floor of the notification benchmark: what a bare loop needs to sign and
// post webhooks to a receiver, against which the worker's drain rate is compared.
import {
  newWebhookSecret,
  signedHeaders,
} from '../../src/notifications/webhooks/signing.js';

/**
 * The raw sender floor: `count` webhook-shaped payloads, each signed as Formgate signs them
 * (Standard Webhooks), posted to the receiver by `concurrency` fetch loops. Deliveries a second.
 */
export async function rawSenderFloor(
  hookUrl: string,
  count: number,
  concurrency: number,
): Promise<number> {
  const secret = newWebhookSecret();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const n = next++;
        const timestamp = Math.floor(Date.now() / 1000);
        const id = `msg_raw${n}`;
        const body = JSON.stringify({
          type: 'submission.created',
          timestamp: new Date().toISOString(),
          data: {
            id: `raw${n}`,
            formId: 'raw',
            data: { n: `r${n}`, email: 'ada@example.com', message: 'Hello' },
            createdAt: new Date().toISOString(),
          },
        });
        const response = await fetch(hookUrl, {
          method: 'POST',
          headers: signedHeaders([secret], id, timestamp, body),
          body,
        });
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`raw sender: ${response.status}`);
      }
    }),
  );
  return Math.round(count / ((performance.now() - started) / 1000));
}

// Clients of a Formgate cluster (test/support/formgate-cluster.ts): each a loopback address
// of its own, sending submissions to the proxy or to one instance directly.
import { fetchFrom } from './loopback-client.js';

let clientCount = 0;
/** A loopback address no other request of this test file has come from: a new client. */
export function newClient(): string {
  clientCount += 1;
  return `127.1.${Math.floor(clientCount / 250)}.${(clientCount % 250) + 1}`;
}

// Tests read answer bodies loosely by default; a test that needs a type names it.
// oxlint-disable-next-line typescript/no-explicit-any
export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export async function answer<T>(response: Response): Promise<Answer<T>> {
  const text = await response.text();
  const json = (response.headers.get('content-type') ?? '').includes('json');
  return {
    status: response.status,
    headers: response.headers,
    body: (json && text ? JSON.parse(text) : text) as T,
  };
}

/** A JSON submission from the client at `from`, to `base` (the proxy or one instance). */
export async function submit(
  base: string,
  formId: string,
  from: string,
  data: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetchFrom(from)(`${base}/api/submit/${formId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(data),
  });
  return answer(response);
}

/**
 * Tries `attempt` until it holds, and resolves with the time taken since `since`
 * (performance.now()); fails once `ms` have passed.
 */
export async function within(
  since: number,
  ms: number,
  what: string,
  attempt: () => Promise<boolean>,
): Promise<number> {
  for (;;) {
    if (await attempt()) return performance.now() - since;
    if (performance.now() - since > ms) {
      throw new Error(`${what}: not within ${ms} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

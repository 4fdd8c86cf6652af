// HTTP from a chosen loopback address. All of 127.0.0.0/8 reaches this machine, so one test
// can be many clients at once, each with an address of its own as a proxy (or the server)
// sees it on the connection — nothing a header could forge.
import { Agent, request as httpRequest } from 'node:http';

/** What these tests send: a string body, headers as a plain object or `Headers`. */
export interface LoopbackInit {
  method?: string;
  headers?: HeadersInit;
  body?: string;
  /** Accepted for compatibility with fetch; redirects are never followed. */
  redirect?: RequestRedirect;
}

export type LoopbackFetch = (
  url: string,
  init?: LoopbackInit,
) => Promise<Response>;

const agent = new Agent({ keepAlive: true });

/** Statuses whose responses carry no body (the Response constructor refuses one). */
const NULL_BODY = new Set([101, 204, 205, 304]);

/** A fetch-like function whose connections leave from `localAddress` (e.g. 127.0.0.7). */
export function fetchFrom(localAddress: string): LoopbackFetch {
  return (url, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const headers = Object.fromEntries(new Headers(init.headers).entries());
      if (init.body !== undefined) {
        headers['content-length'] = String(Buffer.byteLength(init.body));
      }
      const req = httpRequest(
        url,
        { method: init.method ?? 'GET', headers, localAddress, agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const responseHeaders = new Headers();
            for (let i = 0; i < res.rawHeaders.length; i += 2) {
              responseHeaders.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
            }
            const status = res.statusCode ?? 0;
            resolve(
              new Response(
                NULL_BODY.has(status) ? null : Buffer.concat(chunks),
                {
                  status,
                  headers: responseHeaders,
                },
              ),
            );
          });
        },
      );
      req.on('error', reject);
      req.end(init.body);
    });
}

/** Closes the kept-alive connections of every loopback client. */
export function closeLoopbackClients(): void {
  agent.destroy();
}

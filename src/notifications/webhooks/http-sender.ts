// One webhook POST: no redirects followed, a deadline over the whole exchange, at most
// 1 KiB of the answer read, and (unless private targets are allowed) a connection only to
// addresses the guard accepts, checked on the very addresses Node connects to.
import {
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import {
  BlockedAddressError,
  hostOf,
  isPublicAddress,
  resolveHost,
  resolvePublic,
} from './address-guard.js';

export const SEND_TIMEOUT_MS = 10_000;
export const MAX_RESPONSE_BYTES = 1024;

export interface PostResult {
  /** null when no answer came back. */
  statusCode: number | null;
  /** The first bytes of the answer (at most 1 KiB), as text. */
  body: string;
  /** Why no answer came back. */
  error: string | null;
  /** The answer's Retry-After header (a throttled chat provider sends one). */
  retryAfter?: string | null;
}

export interface PostOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
  allowPrivate: boolean;
  dnsServers: string[];
  timeoutMs?: number;
}

function guardedLookup(
  allowPrivate: boolean,
  servers: string[],
): LookupFunction {
  return (hostname, options, callback) => {
    const resolve = allowPrivate ? resolveHost : resolvePublic;
    resolve(hostname, servers).then(
      (addresses) => {
        const wanted =
          options.family === 4 || options.family === 6
            ? addresses.filter((a) => a.family === options.family)
            : addresses;
        if (wanted.length === 0) {
          const error = Object.assign(new Error(`${hostname} has no address`), {
            code: 'ENOTFOUND',
          });
          callback(error, '', 4);
          return;
        }
        if (options.all) {
          (callback as unknown as (e: null, a: typeof wanted) => void)(
            null,
            wanted,
          );
        } else callback(null, wanted[0].address, wanted[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 4),
    );
  };
}

/**
 * Kept-alive connections, per guard setting: a pooled socket is connected to an address
 * the guard accepted when it was opened, so reusing it reaches nothing else.
 */
const agents = new Map<string, { http: HttpAgent; https: HttpsAgent }>();

function agentsFor(allowPrivate: boolean, servers: string[]) {
  const key = `${allowPrivate}|${servers.join(',')}`;
  let pair = agents.get(key);
  if (pair === undefined) {
    const options = { keepAlive: true, maxSockets: 64, timeout: 30_000 };
    pair = { http: new HttpAgent(options), https: new HttpsAgent(options) };
    agents.set(key, pair);
  }
  return pair;
}

function describe(error: unknown): string {
  if (error instanceof BlockedAddressError) return error.message;
  const { code, message } = (error ?? {}) as {
    code?: unknown;
    message?: unknown;
  };
  switch (code) {
    case 'ECONNREFUSED':
      return 'Connection refused';
    case 'ECONNRESET':
      return 'Connection reset';
    case 'ENOTFOUND':
    case 'ENODATA':
      return 'The host name could not be resolved';
    case 'ETIMEOUT':
    case 'ETIMEDOUT':
      return 'Timed out';
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `TLS certificate refused (${code})`;
    default:
      return typeof message === 'string' && message !== ''
        ? message.slice(0, 200)
        : 'Request failed';
  }
}

function firstHeader(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

export function postWebhook(options: PostOptions): Promise<PostResult> {
  const url = new URL(options.url);
  const host = hostOf(url);
  // Node connects to an IP literal without a lookup: check it here.
  if (isIP(host) !== 0 && !options.allowPrivate && !isPublicAddress(host)) {
    return Promise.resolve({
      statusCode: null,
      body: '',
      error: new BlockedAddressError(host, host).message,
    });
  }
  const timeoutMs = options.timeoutMs ?? SEND_TIMEOUT_MS;
  // One controller per post, aborted by its timeout or by the worker stopping. Not
  // AbortSignal.any([options.signal, …]): on Node 20 each call left a WeakRef among the
  // dependants of the worker's signal, which lives as long as the process — one per
  // delivery, for good (docs/performance.md, "A long day under load").
  const controller = new AbortController();
  const stop = () => controller.abort(options.signal.reason);
  const timer = setTimeout(
    () => controller.abort(new DOMException('Timed out', 'TimeoutError')),
    timeoutMs,
  );
  timer.unref();
  if (options.signal.aborted) stop();
  else options.signal.addEventListener('abort', stop, { once: true });
  const signal = controller.signal;
  const https = url.protocol === 'https:';
  const request = https ? httpsRequest : httpRequest;
  const pool = agentsFor(options.allowPrivate, options.dnsServers);
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', stop);
      resolve(result);
    };
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          ...options.headers,
          'content-length': String(Buffer.byteLength(options.body)),
          'user-agent': 'Formgate-Webhooks/1.0',
        },
        lookup: guardedLookup(options.allowPrivate, options.dnsServers),
        signal,
        agent: https ? pool.https : pool.http,
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () =>
          finish({
            statusCode: res.statusCode ?? null,
            body: Buffer.concat(chunks)
              .subarray(0, MAX_RESPONSE_BYTES)
              .toString('utf8'),
            error: null,
            retryAfter: firstHeader(res.headers['retry-after']),
          });
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          // Enough read: the rest is never downloaded (the connection is dropped).
          if (size >= MAX_RESPONSE_BYTES) {
            done();
            res.destroy();
          }
        });
        res.on('end', done);
        res.on('error', done);
      },
    );
    req.on('error', (error) => {
      const timedOut = signal.aborted && !options.signal.aborted;
      finish({
        statusCode: null,
        body: '',
        error: timedOut
          ? `No answer within ${timeoutMs / 1000} s`
          : options.signal.aborted
            ? 'Stopped: the worker shut down'
            : describe(error),
      });
    });
    req.end(options.body);
  });
}

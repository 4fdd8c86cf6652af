// The webhook sender against a receiver on loopback: how a post ends (answered, timed out,
// stopped), and that it leaves nothing attached to the worker's long-lived signal.
import { getEventListeners } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { postWebhook } from './http-sender.js';

describe('postWebhook', () => {
  let server: Server;
  let url: string;
  /** What the receiver does with the next request: answer now, or never. */
  let answer: 'now' | 'never' = 'now';

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      if (answer === 'now') res.writeHead(204).end();
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  });

  const post = (signal: AbortSignal, timeoutMs = 5000) =>
    postWebhook({
      url,
      headers: { 'content-type': 'application/json' },
      body: '{}',
      signal,
      allowPrivate: true,
      dnsServers: [],
      timeoutMs,
    });

  it('leaves no listener on the worker signal once answered, however many posts', async () => {
    answer = 'now';
    const worker = new AbortController();
    for (let i = 0; i < 20; i += 1) {
      const result = await post(worker.signal);
      expect(result).toEqual({
        statusCode: 204,
        body: '',
        error: null,
        retryAfter: null,
      });
    }
    expect(getEventListeners(worker.signal, 'abort')).toHaveLength(0);
  });

  it('gives up on a receiver that does not answer in time, and says so', async () => {
    answer = 'never';
    const worker = new AbortController();
    const result = await post(worker.signal, 200);
    expect(result).toEqual({
      statusCode: null,
      body: '',
      error: 'No answer within 0.2 s',
    });
    expect(getEventListeners(worker.signal, 'abort')).toHaveLength(0);
  });

  it('stops a post in flight when the worker shuts down', async () => {
    answer = 'never';
    const worker = new AbortController();
    const pending = post(worker.signal);
    setTimeout(() => worker.abort(), 100);
    expect(await pending).toEqual({
      statusCode: null,
      body: '',
      error: 'Stopped: the worker shut down',
    });
  });
});

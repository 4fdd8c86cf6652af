// Stand-ins for the chat providers on loopback, answering as each one does: Slack's
// incoming webhook (200 `ok`), Discord's webhook (204), a Teams Workflows webhook (202)
// and Telegram's bot API (200 `{ok: true, result}`) — and, when a test says so, their
// throttle (429) and gone (404 / 410 / Telegram's 403 "bot was blocked") answers. One
// server, the provider told by the path: `/services/…` Slack, `/api/webhooks/…` Discord,
// `/workflows/…` Teams, `/bot<token>/sendMessage` Telegram.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export type ChatProvider = 'slack' | 'discord' | 'teams' | 'telegram';

export interface ChatRequest {
  provider: ChatProvider;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The parsed JSON body. */
  json: Record<string, unknown>;
  answered: number;
  at: number;
}

/** How to answer: a status (with the provider's body), or the provider's throttle / gone. */
export type ChatAnswer =
  'ok' | { throttle: number } | 'gone' | { status: number; body?: string };

export interface ChatReceiver {
  /** 127.0.0.1:PORT, for CHAT_ALLOWED_HOSTS. */
  host: string;
  base: string;
  received: ChatRequest[];
  answer: (request: ChatRequest, n: number) => ChatAnswer;
  /** The env that points every kind at this server. */
  env(): Record<string, string>;
  urls: {
    slack: string;
    discord: string;
    teams: string;
  };
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

function providerOf(path: string): ChatProvider | null {
  if (path.startsWith('/services/')) return 'slack';
  if (path.startsWith('/api/webhooks/')) return 'discord';
  if (path.startsWith('/workflows/')) return 'teams';
  if (/^\/bot\d+:[\w-]+\/sendMessage$/.test(path)) return 'telegram';
  return null;
}

function ok(provider: ChatProvider): [number, string, string] {
  switch (provider) {
    case 'slack':
      return [200, 'text/html', 'ok'];
    case 'discord':
      return [204, 'text/plain', ''];
    case 'teams':
      return [202, 'text/plain', ''];
    case 'telegram':
      return [
        200,
        'application/json',
        JSON.stringify({ ok: true, result: { message_id: 1 } }),
      ];
  }
}

function throttled(
  provider: ChatProvider,
  seconds: number,
): [number, Record<string, string>, string] {
  switch (provider) {
    case 'slack':
      return [429, { 'retry-after': String(seconds) }, 'rate_limited'];
    case 'discord':
      return [
        429,
        { 'retry-after': String(seconds), 'content-type': 'application/json' },
        JSON.stringify({
          message: 'You are being rate limited.',
          retry_after: seconds,
          global: false,
        }),
      ];
    case 'teams':
      return [429, { 'retry-after': String(seconds) }, ''];
    case 'telegram':
      return [
        429,
        { 'content-type': 'application/json' },
        JSON.stringify({
          ok: false,
          error_code: 429,
          description: `Too Many Requests: retry after ${seconds}`,
          parameters: { retry_after: seconds },
        }),
      ];
  }
}

function gone(provider: ChatProvider): [number, string, string] {
  switch (provider) {
    case 'slack':
      return [404, 'text/html', 'no_service'];
    case 'discord':
      return [
        404,
        'application/json',
        JSON.stringify({ message: 'Unknown Webhook', code: 10015 }),
      ];
    case 'teams':
      return [410, 'text/plain', ''];
    case 'telegram':
      return [
        403,
        'application/json',
        JSON.stringify({
          ok: false,
          error_code: 403,
          description: 'Forbidden: bot was blocked by the user',
        }),
      ];
  }
}

export async function startChatReceiver(
  options: { delayMs?: number } = {},
): Promise<ChatReceiver> {
  const receiver = {
    received: [] as ChatRequest[],
    answer: (() => 'ok') as ChatReceiver['answer'],
  } as ChatReceiver;
  let served = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '';
      const provider = providerOf(path);
      const body = Buffer.concat(chunks).toString('utf8');
      if (provider === null || req.method !== 'POST') {
        res.writeHead(404).end('not found');
        return;
      }
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(body) as Record<string, unknown>;
      } catch {
        res.writeHead(400).end('invalid_payload');
        return;
      }
      const request: ChatRequest = {
        provider,
        path,
        headers: req.headers,
        body,
        json,
        answered: 0,
        at: Date.now(),
      };
      const answer = receiver.answer(request, served++);
      // Kept on arrival: a provider posts what it received, whether or not the answer
      // made it back before the sender died.
      receiver.received.push(request);
      const reply = () => {
        let status: number;
        let headers: Record<string, string>;
        let text: string;
        if (answer === 'ok') {
          const [s, type, b] = ok(provider);
          [status, headers, text] = [s, { 'content-type': type }, b];
        } else if (answer === 'gone') {
          const [s, type, b] = gone(provider);
          [status, headers, text] = [s, { 'content-type': type }, b];
        } else if ('throttle' in answer) {
          [status, headers, text] = throttled(provider, answer.throttle);
        } else {
          [status, headers, text] = [answer.status, {}, answer.body ?? ''];
        }
        request.answered = status;
        res.writeHead(status, headers);
        res.end(text);
      };
      if (options.delayMs) setTimeout(reply, options.delayMs);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  receiver.host = `127.0.0.1:${port}`;
  receiver.base = `http://${receiver.host}`;
  receiver.urls = {
    slack: `${receiver.base}/services/T0001/B0001/slacksecret0001`,
    discord: `${receiver.base}/api/webhooks/1234/discordsecret0002`,
    teams: `${receiver.base}/workflows/abc/triggers/manual/paths/invoke?api-version=1&sig=teamssecret0003`,
  };
  receiver.env = () => ({
    CHAT_ALLOWED_HOSTS: ['slack', 'discord', 'teams', 'telegram']
      .map((kind) => `${kind}=${receiver.host}`)
      .join(','),
    TELEGRAM_API_URL: receiver.base,
  });
  receiver.waitFor = async (count, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    while (receiver.received.length < count) {
      if (Date.now() > deadline) {
        throw new Error(
          `expected ${count} chat requests, got ${receiver.received.length}`,
        );
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

// The "every channel on" part of the notification benchmark (BENCH_ONLY=channels, or with
// the standard runs): submit throughput to a form notifying through every channel — a
// webhook, a confirmed email recipient, the four chat channels (to a stand-in answering as
// the providers do) and the autoresponder — against a form with none, both behind the same
// CAPTCHA (a stand-in verify endpoint; each request carries a fresh token, and a fresh
// visitor address), in turns a, b, b, a. Target ≥ 0.9×.
import autocannon from 'autocannon';
import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { procCpuMs } from '../shared/process.js';

export interface ChannelsDeps {
  seconds: number;
  turns: number;
  hookUrl: string;
  /** A new recipient's confirmation links, as the SMTP sink saw them. */
  links: () => Promise<string[]>;
  startServer(
    extra: Record<string, string>,
  ): Promise<{ url: string; child: ChildProcess }>;
  stop(child: ChildProcess): Promise<void>;
  api(
    url: string,
    key: string,
    body?: unknown,
  ): Promise<Record<string, unknown>>;
  accountKey(): string;
}

/** One loopback server playing the chat providers (2xx) and Turnstile's verify endpoint. */
async function startStandIns(): Promise<{
  server: Server;
  base: string;
  host: string;
}> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '';
      if (path === '/turnstile') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"success":true,"hostname":"example.com"}');
      } else if (path.startsWith('/api/webhooks/')) {
        res.writeHead(204).end();
      } else if (path.startsWith('/workflows/')) {
        res.writeHead(202).end();
      } else if (path.startsWith('/bot')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok":true,"result":{}}');
      } else res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    server,
    base: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
  };
}

let sequence = 0;

async function rate(
  server: { url: string; child: ChildProcess },
  formId: string,
  seconds: number,
): Promise<{ rate: number; cpuUs: number }> {
  const cpuBefore = procCpuMs(server.child.pid!);
  const result = await autocannon({
    url: `${server.url}/api/submit/${formId}`,
    connections: 32,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => {
          sequence += 1;
          request.body = JSON.stringify({
            n: 'load',
            email: `visitor${sequence}@example.com`,
            'cf-turnstile-response': `good-${sequence}-${Date.now()}`,
          });
          return request;
        },
      },
    ],
  });
  const cpuMs = procCpuMs(server.child.pid!) - cpuBefore;
  return {
    rate: result.requests.average,
    cpuUs: (cpuMs * 1000) / Math.max(1, result.requests.total),
  };
}

export async function everyChannel(deps: ChannelsDeps) {
  const standIns = await startStandIns();
  const server = await deps.startServer({
    TURNSTILE_VERIFY_URL: `${standIns.base}/turnstile`,
    CHAT_ALLOWED_HOSTS: ['slack', 'discord', 'teams', 'telegram']
      .map((kind) => `${kind}=${standIns.host}`)
      .join(','),
    TELEGRAM_API_URL: standIns.base,
    WORKER_ENABLED: 'true',
  });
  try {
    const key = deps.accountKey();
    const fields = [
      { id: 'email', type: 'email' },
      { id: 'n', type: 'text' },
    ];
    const captcha = {
      provider: 'turnstile',
      siteKey: 'bench',
      secret: 'bench-secret',
      graceUntil: null,
    };
    const forms = `${server.url}/api/v1/forms`;
    const none = (await deps.api(forms, key, { name: 'None', fields, captcha }))
      .id as string;
    const before = (await deps.links()).length;
    const all = (
      await deps.api(forms, key, {
        name: 'Every channel',
        fields,
        captcha,
        notifyEmails: ['team@example.com'],
      })
    ).id as string;
    let links = await deps.links();
    while (links.length <= before) {
      await new Promise((r) => setTimeout(r, 20));
      links = await deps.links();
    }
    await fetch(`${server.url}/confirm-email/${links.at(-1)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    const base = `${forms}/${all}`;
    await deps.api(`${base}/webhooks`, key, { url: deps.hookUrl });
    for (const body of [
      { kind: 'slack', url: `${standIns.base}/services/T/B/benchsecret` },
      { kind: 'discord', url: `${standIns.base}/api/webhooks/1/benchsecret` },
      { kind: 'teams', url: `${standIns.base}/workflows/a?sig=benchsecret` },
      {
        kind: 'telegram',
        botToken: '1:benchsecretbenchsecretbench',
        chatId: '1',
      },
    ]) {
      await deps.api(`${base}/chat-channels`, key, body);
    }
    const patched = await fetch(base, {
      method: 'PATCH',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({
        autoresponse: {
          enabled: true,
          emailField: 'email',
          subject: 'Thanks',
          text: 'We got your message.',
        },
      }),
    });
    if (patched.status !== 200) {
      throw new Error(
        `autoresponse: ${patched.status} ${await patched.text()}`,
      );
    }
    const runs = Array.from({ length: deps.turns }, () => [
      none,
      all,
      all,
      none,
    ]).flat();
    const results: Array<{ rate: number; cpuUs: number }> = [];
    for (const formId of runs) {
      results.push(await rate(server, formId, deps.seconds));
    }
    const mean = (
      id: string,
      pick: (t: { rate: number; cpuUs: number }) => number,
    ) => {
      const of = results.filter((_, i) => runs[i] === id);
      return Math.round(of.reduce((sum, t) => sum + pick(t), 0) / of.length);
    };
    const without = mean(none, (t) => t.rate);
    const withAll = mean(all, (t) => t.rate);
    return {
      submitPerSecondNoChannel: without,
      submitPerSecondEveryChannel: withAll,
      everyChannelRatio: Math.round((withAll / without) * 100) / 100,
      serverCpuUsNoChannel: mean(none, (t) => t.cpuUs),
      serverCpuUsEveryChannel: mean(all, (t) => t.cpuUs),
    };
  } finally {
    await deps.stop(server.child);
    await new Promise((r) => standIns.server.close(r));
  }
}

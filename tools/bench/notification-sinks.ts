// The receivers of the notification benchmark, in a process of their own (started by
// notifications.ts): a webhook receiver and an SMTP server on loopback. Kept out of the
// benchmark's process, so that taking webhooks and mail never slows the load generator
// beside them, as receivers elsewhere would not.
//
// Talks over IPC. Sends `ready` with both addresses, then `arrived` for each latency sample
// (a submission whose `n` starts with "l"), at absolute times (timeOrigin + now, comparable
// across processes). Answers `state` with the counts so far and the confirmation links.
// Submissions whose `n` is `soak<digits>` (soak.ts) are told apart: each one received is
// remembered, so the soak can tell a lost delivery from one received twice.
import { createServer as createHttpServer } from 'node:http';
import { SMTPServer } from 'smtp-server';
import { freePort } from '../shared/process.js';

export interface SinkState {
  hooks: number;
  mails: number;
  /** First and last webhook received, absolute ms. */
  firstHookAt: number;
  lastHookAt: number;
  links: string[];
  /** Distinct soak submissions received by webhook, and receipts of one already received. */
  soakHooks: number;
  soakHookDuplicates: number;
  /** The same by email. */
  soakMails: number;
  soakMailDuplicates: number;
}

export type SinkMessage =
  | { type: 'ready'; hookUrl: string; smtpUrl: string }
  | { type: 'arrived'; channel: 'hook' | 'mail'; n: string; at: number }
  | { type: 'state'; state: SinkState };

const now = () => performance.timeOrigin + performance.now();
const send = (message: SinkMessage) => process.send!(message);
const state: SinkState = {
  hooks: 0,
  mails: 0,
  firstHookAt: 0,
  lastHookAt: 0,
  links: [],
  soakHooks: 0,
  soakHookDuplicates: 0,
  soakMails: 0,
  soakMailDuplicates: 0,
};
const soakHooks = new Set<string>();
const soakMails = new Set<string>();
const SOAK_HOOK = /"n":"(soak\d+)"/;
const SOAK_MAIL = /\bsoak\d+\b/;

const receiver = createHttpServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => {
    const at = now();
    state.hooks += 1;
    state.firstHookAt ||= at;
    state.lastHookAt = at;
    const soak = SOAK_HOOK.exec(body);
    if (soak) {
      if (soakHooks.has(soak[1])) state.soakHookDuplicates += 1;
      else soakHooks.add(soak[1]);
      state.soakHooks = soakHooks.size;
    }
    // Only latency samples are parsed; the load's webhooks are counted.
    if (/"n":"l\d/.test(body)) {
      const n = (JSON.parse(body) as { data: { data: { n?: string } } }).data
        .data.n;
      if (n !== undefined) send({ type: 'arrived', channel: 'hook', n, at });
    }
    res.writeHead(204).end();
  });
});

const mail = new SMTPServer({
  logger: false,
  disabledCommands: ['STARTTLS', 'AUTH'],
  onData(stream, _session, callback) {
    let raw = '';
    stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    stream.on('end', () => {
      const at = now();
      state.mails += 1;
      const link = /\/confirm-email\/([A-Za-z0-9_-]+)/.exec(raw);
      if (link) state.links.push(link[1]);
      const soak = SOAK_MAIL.exec(raw.replace(/=\r?\n/g, ''));
      if (soak) {
        if (soakMails.has(soak[0])) state.soakMailDuplicates += 1;
        else soakMails.add(soak[0]);
        state.soakMails = soakMails.size;
      }
      // The submission's `n` value is listed in the message's text part.
      const n = /\bl\d+\b/.exec(raw.replace(/=\r?\n/g, ''));
      if (n) send({ type: 'arrived', channel: 'mail', n: n[0], at });
      callback();
    });
  },
});

const hookPort = await freePort();
const smtpPort = await freePort();
await new Promise<void>((r) => receiver.listen(hookPort, '127.0.0.1', r));
await new Promise<void>((r) => mail.listen(smtpPort, '127.0.0.1', r));
process.on('message', (message: { type: string }) => {
  if (message.type === 'state') send({ type: 'state', state });
});
process.on('disconnect', () => process.exit(0));
send({
  type: 'ready',
  hookUrl: `http://127.0.0.1:${hookPort}/hook`,
  smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
});

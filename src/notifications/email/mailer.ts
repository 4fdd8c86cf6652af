// The one SMTP transport of the process, built from SMTP_URL and reused for every message
// (a small pool of connections). Absent when mail is off. A send never throws: it answers
// what the server said, in words fit for the delivery log (never the credentials). nodemailer
// is loaded with the first message, not at start.
import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { Transporter } from 'nodemailer';
import { AppConfig, describeSmtp } from '../../config/app-config.js';

export interface OutgoingMail {
  /** One address, already checked by isEmailAddress. */
  to: string;
  subject: string;
  text: string;
  html: string;
  /** One address, already checked by isEmailAddress. */
  replyTo?: string;
  /** Fixed headers of the service's own (an autoresponse's), never a visitor's value. */
  headers?: Record<string, string>;
}

export interface MailResult {
  ok: boolean;
  /** The SMTP reply code, when the server answered. */
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** Milliseconds a server may take at each step: a dead server must not hold a send for minutes. */
const TIMEOUTS = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000,
  dnsTimeout: 10_000,
};
const MAX_ERROR_LENGTH = 500;

/** "250 2.0.0 Ok: queued as …" → 250. */
export function replyCodeOf(response: unknown): number | null {
  if (typeof response !== 'string') return null;
  const code = Number(response.slice(0, 3));
  return Number.isInteger(code) && code >= 200 && code < 600 ? code : null;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

@Injectable()
export class Mailer implements OnApplicationShutdown {
  private readonly logger = new Logger('Mail');
  private transport: Promise<Transporter> | undefined;

  constructor(private readonly config: AppConfig) {}

  /** true when SMTP_URL and MAIL_FROM are set. */
  get enabled(): boolean {
    return this.config.mail !== null;
  }

  /** Sends one message; resolves with the outcome, never rejects. */
  async send(mail: OutgoingMail, signal?: AbortSignal): Promise<MailResult> {
    const started = performance.now();
    const took = () => Math.round(performance.now() - started);
    const settings = this.config.mail;
    if (!settings) {
      return {
        ok: false,
        statusCode: null,
        error: 'Email is off: SMTP_URL and MAIL_FROM are not set',
        durationMs: 0,
      };
    }
    try {
      const transport = await this.transporter();
      const info = await transport.sendMail({
        from: settings.from,
        // Objects, not strings: nodemailer never parses an address out of them.
        to: { name: '', address: mail.to },
        ...(mail.replyTo
          ? { replyTo: { name: '', address: mail.replyTo } }
          : {}),
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        ...(mail.headers ? { headers: mail.headers } : {}),
        // The pieces are ours: no file or URL is ever read into a message.
        disableFileAccess: true,
        disableUrlAccess: true,
        signal,
      });
      return {
        ok: true,
        statusCode: replyCodeOf(info.response),
        error: null,
        durationMs: took(),
      };
    } catch (error) {
      const failure = error as Error & {
        responseCode?: number;
        code?: string;
      };
      const statusCode =
        typeof failure.responseCode === 'number' ? failure.responseCode : null;
      const reason = [failure.code, failure.message].filter(Boolean).join(': ');
      return {
        ok: false,
        statusCode,
        error: this.safe(reason || 'The mail server refused the message'),
        durationMs: took(),
      };
    }
  }

  /** After the senders have finished (their hooks run before this one): closes the connections. */
  async onApplicationShutdown(): Promise<void> {
    const transport = this.transport;
    this.transport = undefined;
    (await transport)?.close();
  }

  private transporter(): Promise<Transporter> {
    this.transport ??= this.createTransport();
    return this.transport;
  }

  private async createTransport(): Promise<Transporter> {
    const settings = this.config.mail!;
    const { default: nodemailer } = await import('nodemailer');
    const transport = nodemailer.createTransport({
      url: settings.smtpUrl,
      pool: true,
      // One connection per parallel send of the worker.
      maxConnections: this.config.workerConcurrency,
      ...TIMEOUTS,
      logger: false,
    });
    this.logger.log(`Sending mail through ${describeSmtp(settings)}`);
    return transport;
  }

  /** An error text for the log: never the password of SMTP_URL, bounded length. */
  private safe(text: string): string {
    let clean = text;
    const { password } = new URL(this.config.mail!.smtpUrl);
    for (const form of new Set([password, decoded(password)])) {
      if (form) clean = clean.split(form).join('[REDACTED]');
    }
    return clean.length > MAX_ERROR_LENGTH
      ? `${clean.slice(0, MAX_ERROR_LENGTH)}…`
      : clean;
  }
}

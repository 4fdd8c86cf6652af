// A real SMTP server on loopback for the email tests (the `smtp-server` package): it
// checks the credentials of SMTP_URL, can refuse recipients, and keeps every message it
// accepted with its SMTP envelope, parsed by `mailparser`.
import { simpleParser, type ParsedMail } from 'mailparser';
import { createServer, type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** MAIL FROM and RCPT TO, as the server was told them (not the headers). */
  envelope: { from: string; to: string[] };
  parsed: ParsedMail;
  /** The message as it came over the wire (headers and body). */
  raw: string;
}

export interface TestSmtpOptions {
  user?: string;
  pass?: string;
}

export class TestSmtpServer {
  readonly messages: ReceivedMail[] = [];
  /** RCPT TO of these addresses is answered 550. */
  readonly refusedRecipients = new Set<string>();
  private waiters: Array<() => void> = [];

  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
    private readonly options: TestSmtpOptions,
  ) {}

  static async start(options: TestSmtpOptions = {}): Promise<TestSmtpServer> {
    let self: TestSmtpServer | undefined;
    const server = new SMTPServer({
      logger: false,
      // No TLS on loopback: STARTTLS would make the client check a self-signed certificate.
      disabledCommands: ['STARTTLS'],
      authOptional: options.user === undefined,
      allowInsecureAuth: true,
      onAuth(auth, _session, callback) {
        if (auth.username === options.user && auth.password === options.pass) {
          callback(null, { user: auth.username });
        } else {
          callback(new Error('Invalid username or password'));
        }
      },
      onRcptTo(address, _session, callback) {
        if (self?.refusedRecipients.has(address.address)) {
          const error = new Error('Mailbox unavailable') as Error & {
            responseCode: number;
          };
          error.responseCode = 550;
          callback(error);
          return;
        }
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          simpleParser(raw).then(
            (parsed) => {
              self!.record({
                envelope: {
                  from:
                    session.envelope.mailFrom === false
                      ? ''
                      : session.envelope.mailFrom.address,
                  to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
                },
                parsed,
                raw,
              });
              callback();
            },
            (error: Error) => callback(error),
          );
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const port = (
      (
        server as unknown as { server: { address(): AddressInfo } }
      ).server.address() as AddressInfo
    ).port;
    self = new TestSmtpServer(server, port, options);
    return self;
  }

  /** SMTP_URL for this server, with its credentials. */
  get url(): string {
    const { user, pass } = this.options;
    const auth =
      user === undefined
        ? ''
        : `${encodeURIComponent(user)}:${encodeURIComponent(pass ?? '')}@`;
    return `smtp://${auth}127.0.0.1:${this.port}`;
  }

  /** The messages whose envelope went to `address`. */
  to(address: string): ReceivedMail[] {
    return this.messages.filter((mail) => mail.envelope.to.includes(address));
  }

  /** Resolves once `count` messages have arrived in all (fails after `timeoutMs`). */
  async waitForMessages(count: number, timeoutMs = 10_000): Promise<void> {
    if (this.messages.length >= count) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `expected ${count} messages, got ${this.messages.length} after ${timeoutMs} ms`,
            ),
          ),
        timeoutMs,
      );
      const check = () => {
        if (this.messages.length < count) return;
        clearTimeout(timer);
        this.waiters = this.waiters.filter((waiter) => waiter !== check);
        resolve();
      };
      this.waiters.push(check);
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private record(mail: ReceivedMail): void {
    this.messages.push(mail);
    for (const waiter of this.waiters) waiter();
  }
}

/** A loopback port nothing listens on (SMTP down). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// Virus scanning of uploads with clamd (CLAMAV_URL=tcp://host:3310; docs/files.md). Each
// file is streamed to clamd with the INSTREAM command while it is stored, chunk by chunk
// as it arrives (4-byte big-endian length, then the bytes; a zero length ends it), and
// clamd's one-line verdict decides: "stream: OK", or "stream: <signature> FOUND".
import { connect, type Socket } from 'node:net';
import type { Readable } from 'node:stream';

export interface ScanVerdict {
  infected: boolean;
  /** The signature clamd named, when infected. */
  signature?: string;
}

/** clamd could not be reached or answered something other than a verdict. */
export class ScannerUnavailableError extends Error {
  constructor(reason: string) {
    super(`virus scanner unavailable: ${reason}`);
    this.name = 'ScannerUnavailableError';
  }
}

/** clamd's own cap on a stream (StreamMaxLength) is far above ours; chunks stay small. */
const MAX_CHUNK = 64 * 1024;

/** One file's scan: write its bytes as they arrive, then finish for the verdict. */
export class ClamavScan {
  private readonly reply: Promise<string>;
  private failure: Error | undefined;

  constructor(
    private readonly socket: Socket,
    timeoutMs: number,
  ) {
    socket.setNoDelay(true);
    socket.setTimeout(timeoutMs, () =>
      socket.destroy(new ScannerUnavailableError('timed out')),
    );
    this.reply = new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', (error) => {
        this.failure =
          error instanceof ScannerUnavailableError
            ? error
            : new ScannerUnavailableError(error.message);
        reject(this.failure);
      });
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
    // A verdict that is never awaited (an aborted upload) must not go unhandled.
    this.reply.catch(() => undefined);
    socket.write('zINSTREAM\0');
  }

  /** Sends bytes; resolves when the socket can take more (backpressure). */
  async write(bytes: Buffer): Promise<void> {
    for (let offset = 0; offset < bytes.length; offset += MAX_CHUNK) {
      if (this.failure) throw this.failure;
      const chunk = bytes.subarray(offset, offset + MAX_CHUNK);
      const length = Buffer.alloc(4);
      length.writeUInt32BE(chunk.length);
      this.socket.write(length);
      if (!this.socket.write(chunk)) await this.drained();
    }
  }

  private drained(): Promise<void> {
    return new Promise((resolve, reject) => {
      const done = () => {
        this.socket.off('drain', done);
        this.socket.off('close', done);
        if (this.failure) reject(this.failure);
        else resolve();
      };
      this.socket.once('drain', done);
      this.socket.once('close', done);
    });
  }

  /** Ends the stream and reads clamd's verdict. */
  async finish(): Promise<ScanVerdict> {
    this.socket.end(Buffer.alloc(4));
    const line = (await this.reply).replace(/\0/g, '').trim();
    const found = /^stream: (.+) FOUND$/.exec(line);
    if (found) return { infected: true, signature: found[1] };
    if (line === 'stream: OK') return { infected: false };
    throw new ScannerUnavailableError(
      line === '' ? 'no answer' : `unexpected answer "${line.slice(0, 200)}"`,
    );
  }

  /** Gives the scan up (the upload failed). */
  abort(): void {
    this.socket.destroy();
  }
}

export class ClamavScanner {
  private readonly host: string;
  private readonly port: number;

  constructor(
    url: string,
    private readonly timeoutMs = 30_000,
  ) {
    const parsed = new URL(url);
    if (parsed.protocol !== 'tcp:' || parsed.hostname === '') {
      throw new Error(`CLAMAV_URL must be tcp://host:port, got "${url}"`);
    }
    this.host = parsed.hostname.replace(/^\[|\]$/g, '');
    this.port = Number(parsed.port || 3310);
  }

  /** Opens a scan; fails with ScannerUnavailableError when clamd cannot be reached. */
  start(): Promise<ClamavScan> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: this.host, port: this.port });
      const failed = (error: Error) =>
        reject(new ScannerUnavailableError(error.message));
      socket.once('error', failed);
      socket.once('connect', () => {
        socket.off('error', failed);
        resolve(new ClamavScan(socket, this.timeoutMs));
      });
    });
  }
}

/** The bytes of `source`, each chunk also sent to clamd before it is passed on. */
export async function* scanned(
  source: Readable,
  scan: ClamavScan,
): AsyncGenerator<Buffer> {
  for await (const chunk of source as AsyncIterable<Buffer>) {
    await scan.write(chunk);
    yield chunk;
  }
}

// A stand-in for clamd on loopback, speaking its INSTREAM protocol over TCP (the real
// daemon needs signature databases downloaded from the internet): it reads the length-
// prefixed chunks, and answers "stream: Eicar-Test-Signature FOUND" when the bytes hold the
// EICAR test string, "stream: OK" otherwise. It records what each scan received.
import { createServer, type Server, type Socket } from 'node:net';

export const EICAR =
  'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';

export interface ClamdServer {
  url: string;
  /** The bytes of every finished scan, in order. */
  scanned: Buffer[];
  close(): Promise<void>;
}

function serve(socket: Socket, scanned: Buffer[]): void {
  let buffer = Buffer.alloc(0);
  let commandRead = false;
  const chunks: Buffer[] = [];
  socket.on('data', (data: Buffer) => {
    buffer = Buffer.concat([buffer, data]);
    if (!commandRead) {
      const end = buffer.indexOf(0);
      if (end === -1) return;
      const command = buffer.subarray(0, end).toString();
      buffer = buffer.subarray(end + 1);
      commandRead = true;
      if (command !== 'zINSTREAM') {
        socket.end('UNKNOWN COMMAND\0');
        return;
      }
    }
    while (buffer.length >= 4) {
      const length = buffer.readUInt32BE(0);
      if (length === 0) {
        const bytes = Buffer.concat(chunks);
        scanned.push(bytes);
        const infected = bytes.includes(EICAR);
        socket.end(
          infected ? 'stream: Eicar-Test-Signature FOUND\0' : 'stream: OK\0',
        );
        buffer = Buffer.alloc(0);
        return;
      }
      if (buffer.length < 4 + length) return;
      chunks.push(buffer.subarray(4, 4 + length));
      buffer = buffer.subarray(4 + length);
    }
  });
  socket.on('error', () => undefined);
}

export async function startClamdServer(): Promise<ClamdServer> {
  const scanned: Buffer[] = [];
  const server: Server = createServer((socket) => serve(socket, scanned));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `tcp://127.0.0.1:${port}`,
    scanned,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
      }),
  };
}

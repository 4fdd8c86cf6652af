// A loopback TCP proxy the tests can cut and restore, to play a database outage.
import {
  createConnection,
  createServer,
  type Server,
  type Socket,
} from 'node:net';

export interface TcpProxy {
  port: number;
  /** Drops every connection and refuses new ones. */
  down(): Promise<void>;
  /**
   * A hung database: connections stay open (new ones are accepted too) but nothing is
   * forwarded any more, so every query waits.
   */
  hang(): void;
  /** Accepts connections again on the same port (dropping the hung ones). */
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(
  targetHost: string,
  targetPort: number,
): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const pairs = new Set<[Socket, Socket]>();
  let server: Server | undefined;
  let port = 0;
  let hung = false;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        if (hung) {
          sockets.add(client);
          client.pause();
          client.on('error', () => sockets.delete(client));
          return;
        }
        const upstream = createConnection({
          host: targetHost,
          port: targetPort,
        });
        sockets.add(client).add(upstream);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
        client.pipe(upstream).pipe(client);
        pairs.add([client, upstream]);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const address = server!.address();
        port = typeof address === 'object' && address ? address.port : port;
        resolve();
      });
    });

  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      pairs.clear();
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
    });

  const hang = () => {
    hung = true;
    for (const [client, upstream] of pairs) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
    }
  };

  const up = async () => {
    if (hung) {
      hung = false;
      await stop();
    }
    pairs.clear();
    if (!server) await listen();
  };

  await listen();
  return { port, down: stop, hang, up, close: stop };
}

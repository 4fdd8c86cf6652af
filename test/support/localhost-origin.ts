// WebAuthn wants the page's origin to be PUBLIC_URL's, and http://localhost:PORT is a
// secure context where 127.0.0.1 would not name an RP ID. The test app learns its port only
// once it listens, after PUBLIC_URL was read: this loopback forwarder takes a port first and
// is pointed at the app afterwards.
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface LocalhostOrigin {
  /** http://localhost:PORT */
  url: string;
  /** Forward to the app listening at `appUrl` (http://127.0.0.1:PORT). */
  pointAt(appUrl: string): void;
  close(): Promise<void>;
}

export async function startLocalhostOrigin(): Promise<LocalhostOrigin> {
  let target = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => client.destroy());
      socket.on('close', () => sockets.delete(socket));
    }
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://localhost:${port}`,
    pointAt(appUrl: string) {
      target = Number(new URL(appUrl).port);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

// The clamd client over real TCP, against a loopback stand-in speaking INSTREAM.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ClamavScanner,
  ScannerUnavailableError,
} from '../../../src/files/uploads/clamav-scanner.js';
import {
  EICAR,
  startClamdServer,
  type ClamdServer,
} from '../../support/clamd-server.js';

describe('ClamavScanner', () => {
  let clamd: ClamdServer;

  beforeAll(async () => {
    clamd = await startClamdServer();
  });
  afterAll(() => clamd.close());

  it('streams a file in chunks and reads a clean verdict', async () => {
    const scanner = new ClamavScanner(clamd.url);
    const scan = await scanner.start();
    const body = Buffer.alloc(300 * 1024, 7);
    await scan.write(body.subarray(0, 1000));
    await scan.write(body.subarray(1000));
    expect(await scan.finish()).toEqual({ infected: false });
    expect(clamd.scanned.at(-1)!.equals(body)).toBe(true);
  });

  it('names the signature of an infected file, even split across writes', async () => {
    const scan = await new ClamavScanner(clamd.url).start();
    const body = Buffer.from(`prefix ${EICAR} suffix`);
    await scan.write(body.subarray(0, 20));
    await scan.write(body.subarray(20));
    expect(await scan.finish()).toEqual({
      infected: true,
      signature: 'Eicar-Test-Signature',
    });
  });

  it('reports an unreachable or silent scanner as unavailable, never as clean', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) =>
      closed.listen(0, '127.0.0.1', resolve),
    );
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(
      new ClamavScanner(`tcp://127.0.0.1:${port}`).start(),
    ).rejects.toBeInstanceOf(ScannerUnavailableError);

    // A server that accepts and never answers: the scan times out.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) =>
      silent.listen(0, '127.0.0.1', resolve),
    );
    const silentPort = (silent.address() as { port: number }).port;
    const scan = await new ClamavScanner(
      `tcp://127.0.0.1:${silentPort}`,
      200,
    ).start();
    await scan.write(Buffer.from('hello'));
    await expect(scan.finish()).rejects.toBeInstanceOf(ScannerUnavailableError);
    silent.close();
  });

  it('takes only tcp:// addresses', () => {
    expect(() => new ClamavScanner('http://127.0.0.1:3310')).toThrow(
      'CLAMAV_URL must be tcp://host:port',
    );
  });
});

// Virus scanning (CLAMAV_URL) against a loopback stand-in speaking clamd's INSTREAM protocol
// over real TCP: the clamd client itself (chunks streamed, a verdict read, an unreachable or
// silent scanner never taken for clean), then uploads end to end — every file is streamed to
// clamd while it is stored; a clean file is kept; a file clamd flags is refused (400 naming
// the field) and nothing of its submission is kept; with clamd unreachable, uploads answer
// 503 rather than go unscanned.
import { createServer } from 'node:net';
import { readdir } from 'node:fs/promises';
import {
  ClamavScanner,
  ScannerUnavailableError,
} from '../../../src/files/uploads/clamav-scanner.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import {
  EICAR,
  startClamdServer,
  type ClamdServer,
} from '../../support/clamd-server.js';
import { countRows } from '../../support/stored-rows.js';
import {
  createTestApp,
  uploadsRoot,
  type TestApp,
} from '../../support/test-app.js';

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

describe('virus scanning of uploads (e2e)', () => {
  let clamd: ClamdServer;
  let t: TestApp;
  let form: TestForm;
  let root: string;

  async function storedObjects(): Promise<string[]> {
    const entries = await readdir(root, {
      recursive: true,
      withFileTypes: true,
    }).catch(() => []);
    return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
  }

  function post(text: string, name = 'notes.txt') {
    const body = new FormData();
    body.set('name', 'Ada');
    body.set('notes', new Blob([text]), name);
    return fetch(`${t.url}/api/submit/${form.form.id}`, {
      method: 'POST',
      headers: { accept: 'application/json' },
      body,
    });
  }

  beforeAll(async () => {
    clamd = await startClamdServer();
    t = await createTestApp({
      env: { CLAMAV_URL: clamd.url, SUBMIT_RATE_LIMIT: '1000' },
    });
    root = uploadsRoot(t);
    const { account } = await createAccount(t);
    form = await createForm(t, account.id, {
      fields: [
        { id: 'name', type: 'text', required: true },
        { id: 'notes', type: 'file', accept: ['.txt'] },
      ],
    });
  });
  afterAll(async () => {
    await t?.close();
    await clamd?.close();
  });

  it('keeps a clean file, every byte of which clamd saw', async () => {
    const text = 'Meeting notes\n'.repeat(10_000);
    const response = await post(text);
    expect(response.status).toBe(200);
    expect(clamd.scanned.at(-1)!.toString()).toBe(text);
    expect(await countRows(t, 'stored_file')).toBe(1);
    expect(await storedObjects()).toHaveLength(1);
  });

  it('refuses a file clamd flags, keeping nothing of its submission', async () => {
    const submissions = await countRows(t, 'submission');
    const response = await post(`hello\n${EICAR}\n`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: expect.any(String),
      errors: ['notes: file rejected'],
    });
    expect(await countRows(t, 'submission')).toBe(submissions);
    expect(await countRows(t, 'stored_file')).toBe(1);
    expect(await storedObjects()).toHaveLength(1);
  });

  it('answers 503 while clamd cannot be reached, and keeps nothing', async () => {
    await clamd.close();
    const submissions = await countRows(t, 'submission');
    const response = await post('fine text\n');
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      error:
        'Uploaded files cannot be checked for viruses right now, please retry shortly',
    });
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await countRows(t, 'submission')).toBe(submissions);
    expect(await storedObjects()).toHaveLength(1);
  });
});

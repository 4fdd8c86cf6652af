// Slow uploads cannot hold the service: a multipart body with files gets Apache's
// mod_reqtimeout rule — 20 s, and 1 s more per 500 bytes received — then 408 with
// `Connection: close` and nothing kept (a file dripping a byte a second is cut at about
// 20 s, although it never falls silent); an honest upload at 1 MB/s runs past 20 s and is
// stored. One client address has at most UPLOAD_CONCURRENCY_PER_IP such bodies in flight:
// the next gets 429 before its body is read, while other addresses go on.
import { connect, type Socket } from 'node:net';
import { readdir } from 'node:fs/promises';
import { StoredFile } from '../../../src/files/stored-file.entity.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import {
  BOUNDARY,
  MULTIPART_TYPE,
  multipart,
  png,
} from '../../support/files.js';
import { request } from '../../support/http.js';
import {
  createTestApp,
  uploadsRoot,
  type TestApp,
} from '../../support/test-app.js';

interface Upload {
  socket: Socket;
  /** Resolves with what the server answered once it closed the connection. */
  closed: Promise<{ ms: number; text: string }>;
}

/** Opens a connection and sends a multipart request head for `length` body bytes. */
function openUpload(
  url: string,
  path: string,
  length: number,
  address: string,
): Upload {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  const started = performance.now();
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
  socket.on('error', () => undefined);
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: test\r\nContent-Type: ${MULTIPART_TYPE}\r\nContent-Length: ${length}\r\nX-Forwarded-For: ${address}\r\nAccept: application/json\r\n\r\n`,
  );
  const closed = new Promise<{ ms: number; text: string }>((resolve) =>
    socket.on('close', () =>
      resolve({ ms: performance.now() - started, text }),
    ),
  );
  return { socket, closed };
}

function fileHead(name = 'doc.png'): Buffer {
  return Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="doc"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`,
  );
}

describe('upload deadlines and uploads in flight per address (e2e)', () => {
  let t: TestApp;
  let form: TestForm;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        SUBMIT_RATE_LIMIT: '1000',
        TRUST_PROXY: '127.0.0.1',
        UPLOAD_CONCURRENCY_PER_IP: '4',
      },
    });
    const { account } = await createAccount(t);
    form = await createForm(t, account.id, {
      fields: [{ id: 'doc', type: 'file', maxSize: 25 * 1024 * 1024 }],
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const path = () => `/api/submit/${form.form.id}`;
  const storedFiles = () =>
    t.dataSource.getRepository(StoredFile).countBy({ formId: form.form.id });
  const filesOnDisk = async () =>
    (
      await readdir(uploadsRoot(t), { recursive: true, withFileTypes: true })
    ).filter((entry) => entry.isFile()).length;

  it('cuts a file dripping a byte a second at about 20 s: 408, Connection: close, nothing kept', async () => {
    const before = await t.dataSource
      .getRepository(Submission)
      .countBy({ formId: form.form.id });
    const bytes = Buffer.concat([fileHead(), png(200_000)]);
    const upload = openUpload(t.url, path(), bytes.length, '198.51.100.10');
    upload.socket.write(bytes.subarray(0, 200));
    let sent = 200;
    // Never silent for long (the idle deadline never fires), but far below 500 bytes/s.
    const drip = setInterval(() => {
      if (upload.socket.destroyed) return;
      upload.socket.write(bytes.subarray(sent, sent + 1));
      sent += 1;
    }, 1000);
    const answer = await upload.closed;
    clearInterval(drip);
    const [status, ...rest] = answer.text.split('\r\n');
    expect(status).toBe('HTTP/1.1 408 Request Timeout');
    expect(rest.map((line) => line.toLowerCase())).toContain(
      'connection: close',
    );
    expect(answer.text).toContain(
      '{"error":"The upload arrived too slowly: after 20 seconds it must keep up 500 bytes a second"}',
    );
    // The server closed the connection, at the deadline rather than at the end of the body.
    expect(answer.ms).toBeGreaterThan(19_000);
    expect(answer.ms).toBeLessThan(30_000);
    expect(
      await t.dataSource
        .getRepository(Submission)
        .countBy({ formId: form.form.id }),
    ).toBe(before);
    expect(await filesOnDisk()).toBe(await storedFiles());
  }, 45_000);

  it('stores an honest upload at 1 MB/s that takes longer than 20 s', async () => {
    const file = png(22_000_000);
    const bytes = multipart([
      { name: 'doc', filename: 'big.png', bytes: file },
    ]);
    const upload = openUpload(t.url, path(), bytes.length, '198.51.100.11');
    let sent = 0;
    await new Promise<void>((resolve) => {
      const pace = setInterval(() => {
        const piece = bytes.subarray(sent, sent + 100_000);
        sent += piece.length;
        upload.socket.write(piece);
        if (sent >= bytes.length) {
          clearInterval(pace);
          resolve();
        }
      }, 100);
    });
    // The answer comes on a kept-alive connection: end it once it is in.
    upload.socket.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('"success":true')) upload.socket.end();
    });
    const { text: answer, ms } = await upload.closed;
    expect(ms).toBeGreaterThan(20_000);
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    const rows = await t.dataSource
      .getRepository(StoredFile)
      .findBy({ formId: form.form.id, name: 'big.png' });
    expect(rows.map((row) => Number(row.size))).toEqual([file.length]);
  }, 60_000);

  it('refuses the fifth upload in flight from one address with 429 before reading it', async () => {
    const address = '198.51.100.20';
    const body = Buffer.concat([fileHead(), png(100_000)]);
    const open = Array.from({ length: 4 }, () => {
      const upload = openUpload(t.url, path(), body.length + 100, address);
      upload.socket.write(body.subarray(0, 1000));
      return upload;
    });
    // The four are being read (their slots taken) before the fifth arrives.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const fifth = openUpload(t.url, path(), body.length, address);
    const refused = await new Promise<string>((resolve) => {
      let text = '';
      fifth.socket.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('\r\n\r\n') && text.includes('}')) resolve(text);
      });
    });
    expect(refused.split('\r\n')[0]).toBe('HTTP/1.1 429 Too Many Requests');
    expect(refused.toLowerCase()).toContain('retry-after: 1');
    expect(refused.toLowerCase()).toContain('access-control-allow-origin: *');
    expect(refused).toContain(
      '{"error":"Too many uploads at once: at most 4 from one address. Retry when one has finished."}',
    );
    fifth.socket.destroy();

    // Another address is not held up by this one.
    const other = await request(`${t.url}${path()}`, {
      body: multipart([{ name: 'doc', filename: 'a.png', bytes: png(2000) }]),
      headers: {
        'content-type': MULTIPART_TYPE,
        accept: 'application/json',
        'x-forwarded-for': '198.51.100.21',
      },
    });
    expect(other.status).toBe(200);

    // Once the four are over, the address may upload again.
    for (const upload of open) upload.socket.destroy();
    await Promise.all(open.map((upload) => upload.closed));
    await expect
      .poll(
        async () =>
          (
            await request(`${t.url}${path()}`, {
              body: multipart([
                { name: 'doc', filename: 'b.png', bytes: png(2000) },
              ]),
              headers: {
                'content-type': MULTIPART_TYPE,
                accept: 'application/json',
                'x-forwarded-for': address,
              },
            })
          ).status,
        { timeout: 5000 },
      )
      .toBe(200);
  }, 30_000);
});

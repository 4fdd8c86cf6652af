// Upload bodies and time (docs/files.md, "Timeouts"), over raw sockets. An upload that keeps
// arriving is not cut by the 15 s whole-request deadline; one that stops arriving is cut
// (408) after UPLOAD_IDLE_TIMEOUT_MS. A multipart body with files gets Apache's
// mod_reqtimeout rule — 20 s, and 1 s more per 500 bytes received — then 408 with
// `Connection: close` (a file dripping a byte a second is cut at about 20 s, although it
// never falls silent); an honest upload at 1 MB/s runs past 20 s and is stored. Nothing of
// a cut upload is kept. One client address has at most UPLOAD_CONCURRENCY_PER_IP such
// bodies in flight: the next gets 429 before its body is read, while other addresses go on.
import { StoredFile } from '../../../src/files/stored-file.entity.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import {
  BOUNDARY,
  filesOnDisk,
  MULTIPART_TYPE,
  multipart,
  openUpload,
  png,
} from '../../support/files.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

interface Answer {
  ms: number;
  text: string;
}

/**
 * Sends the request head, then the body in `pieces`, one every `everyMs` (the last piece
 * only when `finish`); resolves with the raw answer once the server closes the connection.
 */
function drip(
  url: string,
  path: string,
  body: Buffer,
  pieces: number,
  everyMs: number,
  finish: boolean,
): Promise<Answer> {
  const upload = openUpload(url, path, body.length, { Connection: 'close' });
  const size = Math.ceil(body.length / pieces);
  let sent = 0;
  const timer = setInterval(() => {
    const last = sent + size >= body.length;
    if (last && !finish) return;
    upload.socket.write(body.subarray(sent, sent + size));
    sent += size;
    if (last) clearInterval(timer);
  }, everyMs);
  return upload.closed.finally(() => clearInterval(timer));
}

/** The headers of a JSON client behind the trusted proxy, at `address`. */
const from = (address: string) => ({
  'X-Forwarded-For': address,
  Accept: 'application/json',
});

function fileHead(name = 'doc.png'): Buffer {
  return Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="doc"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`,
  );
}

describe('upload bodies and time (e2e)', () => {
  let t: TestApp;
  let form: TestForm;

  beforeAll(async () => {
    t = await createTestApp({ env: { UPLOAD_IDLE_TIMEOUT_MS: '2000' } });
    const { account } = await createAccount(t);
    form = await createForm(t, account.id, {
      fields: [
        { id: 'name', type: 'text' },
        { id: 'doc', type: 'file', required: true },
      ],
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const body = () =>
    multipart([
      { name: 'name', value: 'Slow' },
      { name: 'doc', filename: 'doc.png', bytes: png(200_000) },
    ]);

  it('lets an upload that keeps arriving take longer than 15 s', async () => {
    const answer = await drip(
      t.url,
      `/api/submit/${form.form.id}`,
      body(),
      18,
      1000,
      true,
    );
    expect(answer.ms).toBeGreaterThan(16_000);
    expect(answer.text.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(
      await t.dataSource.getRepository(StoredFile).countBy({
        formId: form.form.id,
      }),
    ).toBe(1);
  }, 40_000);

  it('cuts an upload that stops arriving with 408 and keeps nothing of it', async () => {
    const before = await t.dataSource
      .getRepository(Submission)
      .countBy({ formId: form.form.id });
    const answer = await drip(
      t.url,
      `/api/submit/${form.form.id}`,
      body(),
      4,
      100,
      false,
    );
    expect(answer.text.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
    expect(answer.text).toContain(
      '{"error":"The request took too long to arrive"}',
    );
    // Cut by its silence: well before the 15 s a whole request gets.
    expect(answer.ms).toBeGreaterThan(1500);
    expect(answer.ms).toBeLessThan(10_000);
    expect(
      await t.dataSource
        .getRepository(Submission)
        .countBy({ formId: form.form.id }),
    ).toBe(before);
    const stored = await t.dataSource
      .getRepository(StoredFile)
      .findBy({ formId: form.form.id });
    expect(await filesOnDisk(t)).toBe(stored.length);
  }, 30_000);
});

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

  it('cuts a file dripping a byte a second at about 20 s: 408, Connection: close, nothing kept', async () => {
    const before = await t.dataSource
      .getRepository(Submission)
      .countBy({ formId: form.form.id });
    const bytes = Buffer.concat([fileHead(), png(200_000)]);
    const upload = openUpload(
      t.url,
      path(),
      bytes.length,
      from('198.51.100.10'),
    );
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
    expect(await filesOnDisk(t)).toBe(await storedFiles());
  }, 45_000);

  it('stores an honest upload at 1 MB/s that takes longer than 20 s', async () => {
    const file = png(22_000_000);
    const bytes = multipart([
      { name: 'doc', filename: 'big.png', bytes: file },
    ]);
    const upload = openUpload(
      t.url,
      path(),
      bytes.length,
      from('198.51.100.11'),
    );
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
      const upload = openUpload(
        t.url,
        path(),
        body.length + 100,
        from(address),
      );
      upload.socket.write(body.subarray(0, 1000));
      return upload;
    });
    // The four are being read (their slots taken) before the fifth arrives.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const fifth = openUpload(t.url, path(), body.length, from(address));
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

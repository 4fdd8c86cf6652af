// Upload bodies and time (docs/files.md, "Timeouts"): an upload that keeps arriving is not
// cut by the 15 s whole-request deadline, one that stops arriving is cut (408) after
// UPLOAD_IDLE_TIMEOUT_MS, and nothing of it is kept.
import { connect } from 'node:net';
import { readdir } from 'node:fs/promises';
import { StoredFile } from '../../../src/files/stored-file.entity.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { multipart, MULTIPART_TYPE, png } from '../../support/files.js';
import {
  createTestApp,
  uploadsRoot,
  type TestApp,
} from '../../support/test-app.js';

interface Answer {
  ms: number;
  text: string;
}

/**
 * Sends the request head, then the body in `pieces`, one every `everyMs` (the last piece
 * only when `finish`); resolves with the raw answer once the server closes or answers.
 */
function drip(
  url: string,
  path: string,
  body: Buffer,
  pieces: number,
  everyMs: number,
  finish: boolean,
): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const size = Math.ceil(body.length / pieces);
    const started = performance.now();
    let sent = 0;
    let text = '';
    let timer: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: test\r\nContent-Type: ${MULTIPART_TYPE}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
      );
      timer = setInterval(() => {
        const last = sent + size >= body.length;
        if (last && !finish) return;
        socket.write(body.subarray(sent, sent + size));
        sent += size;
        if (last) clearInterval(timer);
      }, everyMs);
    });
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ ms: performance.now() - started, text });
    });
  });
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
    const root = uploadsRoot(t);
    const entries = await readdir(root, {
      recursive: true,
      withFileTypes: true,
    });
    expect(entries.filter((entry) => entry.isFile())).toHaveLength(
      stored.length,
    );
  }, 30_000);
});

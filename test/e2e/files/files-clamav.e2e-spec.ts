// Virus scanning of uploads (CLAMAV_URL): every file is streamed to clamd — here a loopback
// stand-in speaking its INSTREAM protocol over real TCP — while it is stored. A clean file
// is kept; a file clamd flags is refused (400 naming the field) and nothing of its
// submission is kept; with clamd unreachable, uploads answer 503 rather than go unscanned.
import { readdir } from 'node:fs/promises';
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

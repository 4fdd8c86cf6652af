// Acknowledged uploads survive SIGKILL: the built server takes concurrent multipart posts
// with files on the test database (an SQLite file, or MariaDB with TEST_DATABASE_URL) and
// local disk; it is killed mid-upload, started again, and then every file it acknowledged
// downloads byte for byte, and once the orphan sweep has run, every stored object has its
// row (what the kill cut short is gone).
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { generateApiKey } from '../../../src/auth/api-keys.js';
import {
  beginDurableRun,
  type DurableRun,
} from '../../support/durable-server.js';
import { multipart, MULTIPART_TYPE, png } from '../../support/files.js';
import { waitFor, type ServerProcess } from '../../support/server-process.js';

const SECRET = 'durability-test-secret-durability-test-0123';
const FORM_ID = 'uploadform';
const LANES = 6;
const FIELDS = JSON.stringify([
  { id: 'n', type: 'text', required: true },
  { id: 'doc', type: 'file', required: true, maxSize: 1_000_000 },
]);

async function objectsUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, {
    recursive: true,
    withFileTypes: true,
  }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

describe('acknowledged uploads after SIGKILL (e2e, server process)', () => {
  let run: DurableRun;
  let uploads: string;
  const key = generateApiKey('form');

  beforeEach(async () => {
    run = await beginDurableRun('uploads-durability', (workdir) => {
      uploads = join(workdir, 'uploads');
      return {
        APP_SECRET: SECRET,
        STORAGE_URL: `file:${uploads}`,
        SUBMIT_RATE_LIMIT: '1000000',
        SWEEP_INTERVAL_SECONDS: '0',
        LOG_LEVEL: 'warn',
      };
    });
  });
  afterEach(() => run.end());

  const query = <T>(sql: string) => run.query<T>(sql);
  const start = (extra: Record<string, string> = {}) => run.start(extra);

  /** LANES clients uploading numbered files back to back until told to stop. */
  function load(server: ServerProcess) {
    const acknowledged = new Map<string, string>();
    let stop = false;
    const post = async (n: number) => {
      const bytes = png(150_000 + n);
      const res = await fetch(`${server.url}/api/submit/${FORM_ID}`, {
        method: 'POST',
        headers: { 'content-type': MULTIPART_TYPE },
        body: new Uint8Array(
          multipart([
            { name: 'n', value: String(n) },
            { name: 'doc', filename: `doc-${n}.png`, bytes },
          ]),
        ),
      }).catch(() => undefined);
      if (res === undefined) return false;
      const ok = res.status === 200;
      await res.arrayBuffer().catch(() => undefined);
      if (ok) {
        acknowledged.set(
          String(n),
          createHash('sha256').update(bytes).digest('hex'),
        );
      }
      return true;
    };
    const lanes = Array.from({ length: LANES }, async (_, lane) => {
      for (let n = lane; !stop; n += LANES) {
        if (!(await post(n))) return;
      }
    });
    return {
      acknowledged,
      async stop() {
        stop = true;
        await Promise.all(lanes);
      },
    };
  }

  it('keeps every acknowledged file downloadable, and leaves no orphan after the sweep', async () => {
    const first = await start();
    await query(
      "INSERT INTO account (id, name, createdAt, updatedAt) VALUES ('acc', 'k@example.com', '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000')",
    );
    await query(
      `INSERT INTO form (id, accountId, name, fields, domainVerification, apiKeyHash, apiKeyEncrypted, apiKeyPrefix, createdAt, updatedAt) VALUES ('${FORM_ID}', 'acc', 'Uploads', '${FIELDS}', 0, '${key.hash}', 'e', '${key.prefix}', '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000')`,
    );
    const traffic = load(first);
    await waitFor(
      async () => traffic.acknowledged.size >= 40,
      60_000,
      '40 acknowledged uploads',
    );
    first.child.kill('SIGKILL');
    await first.exited;
    await traffic.stop();
    expect(traffic.acknowledged.size).toBeGreaterThanOrEqual(40);

    // Started again, with a sweep that deletes orphans a second old.
    const second = await start({
      SWEEP_INTERVAL_SECONDS: '1',
      UPLOAD_ORPHAN_AGE_SECONDS: '1',
    });
    try {
      const rows = await query<{ data: string | Record<string, unknown> }>(
        `SELECT data FROM submission WHERE formId = '${FORM_ID}'`,
      );
      const byNumber = new Map(
        rows.map((row) => {
          const data = (
            typeof row.data === 'string' ? JSON.parse(row.data) : row.data
          ) as { n: string; doc: { id: string; sha256: string } };
          return [data.n, data] as const;
        }),
      );
      const submissions = await query<{ id: string; data: unknown }>(
        `SELECT id, data FROM submission WHERE formId = '${FORM_ID}'`,
      );
      const idOf = new Map(
        submissions.map((row) => {
          const data = (
            typeof row.data === 'string' ? JSON.parse(row.data) : row.data
          ) as { n: string };
          return [data.n, row.id] as const;
        }),
      );
      for (const [n, sha256] of traffic.acknowledged) {
        const data = byNumber.get(n);
        expect(data?.doc.sha256, `upload ${n}`).toBe(sha256);
        const response = await fetch(
          `${second.url}/api/v1/forms/${FORM_ID}/submissions/${idOf.get(n)}/files/${data!.doc.id}`,
          { headers: { 'x-api-key': key.key } },
        );
        expect(response.status, `upload ${n}`).toBe(200);
        const bytes = Buffer.from(await response.arrayBuffer());
        expect(createHash('sha256').update(bytes).digest('hex')).toBe(sha256);
      }

      // Once the sweep has run, the objects are exactly those with rows.
      const files = await query<{ id: string; submissionId: string }>(
        `SELECT id, submissionId FROM stored_file WHERE formId = '${FORM_ID}'`,
      );
      const expected = files
        .map((file) => `forms/${FORM_ID}/${file.submissionId}/${file.id}`)
        .sort();
      await waitFor(
        async () =>
          JSON.stringify(await objectsUnder(uploads)) ===
          JSON.stringify(expected),
        20_000,
        'the orphan sweep',
      );
      expect(files.length).toBeGreaterThanOrEqual(traffic.acknowledged.size);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  }, 120_000);
});

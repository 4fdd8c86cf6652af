// Upload benchmark (npm run bench:uploads): 20 parallel uploads of 20 MB each (one file
// per submission, multipart/form-data) to a built Formgate on local disk and SQLite, and
// the same bytes to a bare Node server that pipes each request socket to a file and fsyncs
// it (raw-upload-server.ts), in the same run. Reports the growth of Formgate's RSS during
// the uploads (sampled every 20 ms, and its peak, VmHWM), and the throughput of both.
// BENCH_ROUNDS (default 2) rounds alternate between the two; the best of each is reported.
// Targets (docs/performance.md): RSS growth ≤ 100 MB; Formgate ≥ 0.5× the raw pipeline.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { multipart, MULTIPART_TYPE, png } from '../../test/support/files.js';
import {
  BENCH_SECRET,
  CLI_JS,
  log,
  procStatusMb,
  sleep,
  startServer,
  stopChild,
} from '../shared/process.js';

const env = process.env;
const PARALLEL = Number(env.BENCH_PARALLEL ?? 20);
const MB = Number(env.BENCH_FILE_MB ?? 20);
const ROUNDS = Number(env.BENCH_ROUNDS ?? 2);

/** Posts `body` to `url`, streaming it; resolves with the status. */
function post(url: string, body: Buffer, type: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': type, 'content-length': body.length },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => {
          if (res.statusCode !== 200)
            log(`${res.statusCode}: ${text.slice(0, 300)}`);
          resolve(res.statusCode ?? 0);
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** PARALLEL posts at once; MB/s of body bytes. */
async function round(url: string, body: Buffer, type: string) {
  const started = performance.now();
  const statuses = await Promise.all(
    Array.from({ length: PARALLEL }, () => post(url, body, type)),
  );
  const seconds = (performance.now() - started) / 1000;
  const failed = statuses.filter((status) => status !== 200);
  if (failed.length > 0) throw new Error(`answers: ${failed.join(', ')}`);
  return (PARALLEL * body.length) / 1e6 / seconds;
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'formgate-bench-uploads-'));
  const serverEnv = {
    APP_SECRET: BENCH_SECRET,
    DATABASE_URL: `sqlite:${join(work, 'bench.sqlite')}`,
    STORAGE_URL: `file:${join(work, 'uploads')}`,
    UPLOAD_MAX_FILE_SIZE: String(64 * 1024 * 1024),
    UPLOAD_BODY_LIMIT: String(64 * 1024 * 1024),
    SUBMIT_RATE_LIMIT: '1000000',
    SWEEP_INTERVAL_SECONDS: '0',
    LOG_LEVEL: 'warn',
  };
  const raw = spawn(
    process.execPath,
    [join(import.meta.dirname, 'raw-upload-server.js'), work],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    const rawPort = await new Promise<number>((resolve) =>
      raw.stdout.on('data', (chunk: Buffer) => {
        const match = /listening (\d+)/.exec(chunk.toString());
        if (match) resolve(Number(match[1]));
      }),
    );
    const server = await startServer({ env: serverEnv });
    try {
      const cli = execFileSync(
        process.execPath,
        [
          CLI_JS,
          'accounts:create',
          '--email',
          'bench-uploads@example.com',
          '--password',
          'bench-password-long-enough-1',
        ],
        { env: { PATH: env.PATH ?? '', ...serverEnv }, encoding: 'utf8' },
      );
      const { apiKey } = JSON.parse(cli.trim().split('\n').pop()!) as {
        apiKey: string;
      };
      const created = await fetch(`${server.url}/api/v1/forms`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Bench uploads',
          fields: [
            {
              id: 'doc',
              type: 'file',
              required: true,
              maxSize: 64 * 1024 * 1024,
            },
          ],
        }),
      });
      if (created.status !== 201) {
        throw new Error(`form creation: ${created.status}`);
      }
      const { id: formId } = (await created.json()) as { id: string };
      const file = png(MB * 1e6);
      const body = multipart([
        { name: 'doc', filename: 'big.png', bytes: file },
      ]);
      const submitUrl = `${server.url}/api/submit/${formId}`;
      // Warm up (JIT, the first write of the directories), then settle.
      await post(
        submitUrl,
        multipart([{ name: 'doc', filename: 'w.png', bytes: png(1e6) }]),
        MULTIPART_TYPE,
      );
      await sleep(1000);
      const pid = server.child.pid!;
      const baseline = procStatusMb(pid, 'VmRSS');
      let peak = baseline;
      const sampler = setInterval(() => {
        peak = Math.max(peak, procStatusMb(pid, 'VmRSS'));
      }, 20);
      const formgate: number[] = [];
      const floor: number[] = [];
      try {
        for (let i = 0; i < ROUNDS; i += 1) {
          log(`round ${i + 1}: Formgate`);
          formgate.push(await round(submitUrl, body, MULTIPART_TYPE));
          log(`round ${i + 1}: raw pipeline`);
          floor.push(
            await round(`http://127.0.0.1:${rawPort}/`, body, MULTIPART_TYPE),
          );
        }
      } finally {
        clearInterval(sampler);
      }
      const result = {
        parallel: PARALLEL,
        fileMb: MB,
        rssBaselineMb: Math.round(baseline),
        rssPeakMb: Math.round(peak),
        rssGrowthMb: Math.round(peak - baseline),
        vmHwmMb: Math.round(procStatusMb(pid, 'VmHWM')),
        formgateMBps: Math.round(Math.max(...formgate)),
        rawMBps: Math.round(Math.max(...floor)),
        ratio: Number((Math.max(...formgate) / Math.max(...floor)).toFixed(2)),
      };
      console.log(
        `${PARALLEL} × ${MB} MB: RSS ${result.rssBaselineMb} → ${result.rssPeakMb} MB (+${result.rssGrowthMb} MB, limit 100); ` +
          `Formgate ${result.formgateMBps} MB/s, raw pipeline ${result.rawMBps} MB/s (${result.ratio}×, target ≥ 0.5×)`,
      );
      console.log(`BENCH_JSON ${JSON.stringify(result)}`);
    } finally {
      await stopChild(server.child);
    }
  } finally {
    raw.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  }
}

await main();

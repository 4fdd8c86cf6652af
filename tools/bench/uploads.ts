// Upload benchmark (npm run bench:uploads).
//
// Formgate on SQLite storing files on local disk, loaded with UPLOADS (default 20) parallel
// multipart submissions each carrying one FILE_MB (default 20) MB file, ROUNDS rounds
// (default 3). Measured, side by side in the same run:
// - the server's RSS before the load and its peak during it (target: grows ≤ 100 MB);
// - upload throughput (MB/s of file bytes acknowledged), against a raw Node pipeline
//   receiving the very same request bodies on a socket and writing them to a file with an
//   fsync before it answers (target: ≥ 0.5x).
// Every upload must be answered 200, and every stored file must have its full size.
import {
  createWriteStream,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import { request as httpRequest, createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BENCH_SECRET,
  freePort,
  log,
  procStatusMb,
  sleep,
} from '../shared/process.js';
import { startServer, stopChild } from '../shared/process.js';
import { createForm, type Server } from './submit-servers.js';

const env = process.env;
const UPLOADS = Number(env.BENCH_UPLOADS ?? 20);
const FILE_MB = Number(env.BENCH_FILE_MB ?? 20);
const ROUNDS = Number(env.BENCH_ROUNDS ?? 3);
const TARGETS = { rssGrowthMb: 100, throughputRatio: 0.5 };

const BOUNDARY = '----formgate-bench-boundary';
const FILE_BYTES = FILE_MB * 1024 * 1024;
// A PDF by its magic number, then filler: judged by its bytes as the form accepts.
const FILE = Buffer.alloc(FILE_BYTES, 0x20);
FILE.write('%PDF-1.7\n', 0);
const HEAD = Buffer.from(
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="name"\r\n\r\nAda\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="upload"; filename="report.pdf"\r\n` +
    `Content-Type: application/pdf\r\n\r\n`,
);
const TAIL = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
const BODY_BYTES = HEAD.length + FILE.length + TAIL.length;
const CHUNK = 64 * 1024;

/** Posts one multipart body in 64 KiB writes (as a socket delivers it); resolves the status. */
function upload(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'content-length': String(BODY_BYTES),
          accept: 'application/json',
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.write(HEAD);
    let offset = 0;
    const writeMore = () => {
      while (offset < FILE.length) {
        const chunk = FILE.subarray(offset, offset + CHUNK);
        offset += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', writeMore);
          return;
        }
      }
      req.end(TAIL);
    };
    writeMore();
  });
}

/** UPLOADS uploads at once; the MB/s of file bytes and the statuses that were not 200. */
async function round(
  url: string,
): Promise<{ mbPerSecond: number; failed: number[] }> {
  const started = performance.now();
  const statuses = await Promise.all(
    Array.from({ length: UPLOADS }, () => upload(url)),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    mbPerSecond: Math.round(((UPLOADS * FILE_MB) / seconds) * 10) / 10,
    failed: statuses.filter((status) => status !== 200),
  };
}

/** The raw pipeline: each request body streamed to its own file, fsynced, then 200. */
async function startRawServer(
  dir: string,
): Promise<{ url: string; close: () => void }> {
  let n = 0;
  const server = createServer((req, res) => {
    n += 1;
    const file = createWriteStream(join(dir, `raw-${n}`), { flush: true });
    req.pipe(file);
    file.on('finish', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"success":true}');
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) =>
    server.listen(port, '127.0.0.1', resolve),
  );
  return { url: `http://127.0.0.1:${port}/`, close: () => server.close() };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'formgate-bench-uploads-'));
  const databaseUrl = `sqlite:${join(dir, 'bench.sqlite')}`;
  const { child, url } = await startServer({
    env: {
      DATABASE_URL: databaseUrl,
      APP_SECRET: BENCH_SECRET,
      STORAGE_URL: `file:${join(dir, 'files')}`,
      UPLOAD_MAX_FILE_SIZE: String(FILE_BYTES + 1024 * 1024),
      UPLOAD_BODY_LIMIT: String(BODY_BYTES + 1024 * 1024),
      SUBMIT_RATE_LIMIT: '1000000',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const raw = await startRawServer(dir);
  try {
    const server: Server = { name: 'formgate', url, child, formId: '' };
    await createForm(server, databaseUrl, [
      { id: 'name', type: 'text', required: true },
      {
        id: 'upload',
        type: 'file',
        required: true,
        maxSize: FILE_BYTES,
        accept: ['application/pdf'],
      },
    ]);
    const submitUrl = `${url}/api/submit/${server.formId}`;
    await sleep(2000);
    const rssBefore = procStatusMb(child.pid ?? 0, 'VmRSS');
    let peak = rssBefore;
    const sampler = setInterval(() => {
      peak = Math.max(peak, procStatusMb(child.pid ?? 0, 'VmRSS'));
    }, 20);
    const formgate: number[] = [];
    const rawRates: number[] = [];
    const failures: number[] = [];
    log(`${UPLOADS} parallel uploads of ${FILE_MB} MB, ${ROUNDS} rounds`);
    for (let i = 1; i <= ROUNDS; i += 1) {
      // The order alternates, so that machine noise falls on both alike.
      const pair =
        i % 2 === 1
          ? [
              ['formgate', submitUrl],
              ['raw', raw.url],
            ]
          : [
              ['raw', raw.url],
              ['formgate', submitUrl],
            ];
      for (const [name, target] of pair) {
        const result = await round(target);
        (name === 'formgate' ? formgate : rawRates).push(result.mbPerSecond);
        failures.push(...result.failed);
        log(
          `round ${i} ${name.padEnd(8)} ${result.mbPerSecond} MB/s  non-200 ${result.failed.length}`,
        );
      }
    }
    clearInterval(sampler);
    // Every acknowledged upload is on disk, whole.
    const stored = readdirSync(join(dir, 'files', 'forms'), {
      recursive: true,
      withFileTypes: true,
    }).filter((entry) => entry.isFile());
    const whole = stored.filter(
      (entry) =>
        statSync(join(entry.parentPath, entry.name)).size === FILE_BYTES,
    ).length;
    const acknowledged = formgate.length * UPLOADS - failures.length;
    const rssGrowth = Math.round((peak - rssBefore) * 10) / 10;
    const ratio = Math.round((median(formgate) / median(rawRates)) * 100) / 100;
    const summary = {
      uploads: UPLOADS,
      fileMb: FILE_MB,
      rounds: ROUNDS,
      formgateMbPerSecond: median(formgate),
      rawMbPerSecond: median(rawRates),
      throughputRatio: ratio,
      rssBeforeMb: Math.round(rssBefore * 10) / 10,
      rssPeakMb: Math.round(peak * 10) / 10,
      rssGrowthMb: rssGrowth,
      non200: failures.length,
      storedWhole: whole,
    };
    console.log(
      [
        `Upload benchmark: ${UPLOADS} parallel uploads of ${FILE_MB} MB, ${ROUNDS} rounds, median`,
        `Formgate (local disk): ${summary.formgateMbPerSecond} MB/s; raw socket → file pipeline: ${summary.rawMbPerSecond} MB/s; ratio ${ratio}x`,
        `server RSS: ${summary.rssBeforeMb} MB before, ${summary.rssPeakMb} MB at peak (+${rssGrowth} MB)`,
      ].join('\n'),
    );
    console.log(`BENCH_JSON ${JSON.stringify(summary)}`);
    const misses: string[] = [];
    if (rssGrowth > TARGETS.rssGrowthMb) {
      misses.push(
        `RSS grew ${rssGrowth} MB (target ≤ ${TARGETS.rssGrowthMb} MB)`,
      );
    }
    if (ratio < TARGETS.throughputRatio) {
      misses.push(
        `throughput ${ratio}x the raw pipeline (target ≥ ${TARGETS.throughputRatio}x)`,
      );
    }
    if (whole !== acknowledged || stored.length !== acknowledged) {
      misses.push(
        `${acknowledged} uploads acknowledged, ${stored.length} files stored, ${whole} of them whole`,
      );
    }
    if (failures.length > 0) {
      misses.push(
        `${failures.length} uploads not answered 200 (${[...new Set(failures)].join(', ')})`,
      );
    }
    for (const miss of misses) log(`target missed: ${miss}`);
    return misses.length === 0 ? 0 : 1;
  } finally {
    raw.close();
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

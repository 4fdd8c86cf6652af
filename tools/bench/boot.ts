// npm run bench:boot: Formgate's first boot on SQLite. For the Node binary running this script,
// and for the one BENCH_NODE24 names (e.g. BENCH_NODE24=$(bash .ci/node24.sh)/bin/node), it
// starts Formgate BENCH_BOOT_RUNS times (3 by default), each on a new SQLite database, and
// reports the median time from spawn to /health/ready and the median resident memory 1 s
// after ready and after 30 s without a request. Every process stays up, idle, until its
// 30 s are over; the next one starts once the previous one has been measured at 1 s.
// Exits 1 when a target (boot-figures.ts) is missed.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { log, sleep } from '../shared/process.js';
import { BOOT_TARGETS, firstBoot, medianOf, rssMb } from './boot-figures.js';
import { stop, type Server } from './submit-servers.js';

const RUNS = Number(process.env.BENCH_BOOT_RUNS ?? 3);
const IDLE_MS = 30_000;

interface Boot {
  node: string;
  server: Server;
  startMs: number;
  readyAt: number;
  rss1sMb: number;
  rss30sMb?: number;
}

function nodeVersion(node: string): string {
  return execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
}

async function main(): Promise<number> {
  const nodes = [process.execPath];
  if (process.env.BENCH_NODE24) nodes.push(process.env.BENCH_NODE24);
  const dir = mkdtempSync(join(tmpdir(), 'formgate-boot-'));
  const boots: Boot[] = [];
  try {
    for (let run = 1; run <= RUNS; run += 1) {
      for (const node of nodes) {
        const server = await firstBoot(dir, node);
        const readyAt = performance.now();
        boots.push({
          node,
          server,
          startMs: server.startMs,
          readyAt,
          rss1sMb: NaN,
        });
        await sleep(1000);
        const boot = boots.at(-1)!;
        boot.rss1sMb = rssMb(server.child);
        log(
          `${nodeVersion(node)} run ${run}: ready in ${boot.startMs} ms, RSS 1 s after ready ${boot.rss1sMb} MB`,
        );
      }
    }
    for (const boot of boots) {
      await sleep(Math.max(0, boot.readyAt + IDLE_MS - performance.now()));
      boot.rss30sMb = rssMb(boot.server.child);
    }
  } finally {
    await Promise.all(boots.map((boot) => stop(boot.server)));
    rmSync(dir, { recursive: true, force: true });
  }

  const misses: string[] = [];
  const lines = [
    `First boot on SQLite (new database, migrations included), median of ${RUNS} runs; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
    '',
    '| Node | spawn to ready | RSS 1 s after ready | RSS after 30 s idle |',
    '|---|---:|---:|---:|',
  ];
  const summary: Record<string, unknown> = {};
  for (const node of nodes) {
    const own = boots.filter((b) => b.node === node);
    const version = nodeVersion(node);
    const figures = {
      coldStartMs: medianOf(own.map((b) => b.startMs)),
      rss1sMb: medianOf(own.map((b) => b.rss1sMb)),
      rss30sMb: medianOf(own.map((b) => b.rss30sMb!)),
      runs: own.map(({ startMs, rss1sMb, rss30sMb }) => ({
        startMs,
        rss1sMb,
        rss30sMb,
      })),
    };
    summary[version] = figures;
    lines.push(
      `| ${version} | ${figures.coldStartMs} ms | ${figures.rss1sMb} MB | ${figures.rss30sMb} MB |`,
    );
    if (figures.coldStartMs >= BOOT_TARGETS.coldStartMs) {
      misses.push(
        `${version}: cold start ${figures.coldStartMs} ms (target < ${BOOT_TARGETS.coldStartMs} ms)`,
      );
    }
    if (figures.rss30sMb >= BOOT_TARGETS.idleRssMb) {
      misses.push(
        `${version}: idle RSS ${figures.rss30sMb} MB (target < ${BOOT_TARGETS.idleRssMb} MB)`,
      );
    }
  }
  console.log(lines.join('\n'));
  console.log(`BENCH_JSON ${JSON.stringify(summary)}`);
  for (const miss of misses) log(`target missed: ${miss}`);
  return misses.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

// Formgate's footprint at start, measured the same way by bench:boot and bench:submit: the
// time from spawning the process to /health/ready on a fresh SQLite database (a first boot,
// migrations included) and the process's resident memory.
import { join } from 'node:path';
import { procStatusMb } from '../shared/process.js';
import { startFormgate, stop, type Server } from './submit-servers.js';

export const BOOT_TARGETS = {
  /** Spawn to /health/ready on a fresh SQLite database. */
  coldStartMs: 1000,
  /** Resident memory after 30 s without a request, on SQLite. */
  idleRssMb: 120,
};

/** The process's resident memory now, in MB to one decimal. */
export function rssMb(child: Server['child']): number {
  return Math.round(procStatusMb(child.pid ?? 0, 'VmRSS') * 10) / 10;
}

export function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

let databases = 0;

/** A SQLite database in `dir` that no process has opened yet. */
export function freshSqliteUrl(dir: string): string {
  databases += 1;
  return `sqlite:${join(dir, `boot-${process.pid}-${databases}.sqlite`)}`;
}

/** Formgate started by `node` on a new SQLite database in `dir`; startMs is spawn to ready. */
export function firstBoot(
  dir: string,
  node = process.execPath,
): Promise<Server & { startMs: number }> {
  return startFormgate('first-boot', freshSqliteUrl(dir), node);
}

/** The median of `runs` first boots (each on a new database), each stopped once ready. */
export async function coldStartMs(
  dir: string,
  node = process.execPath,
  runs = 3,
): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const server = await firstBoot(dir, node);
    samples.push(server.startMs);
    await stop(server);
  }
  return medianOf(samples);
}

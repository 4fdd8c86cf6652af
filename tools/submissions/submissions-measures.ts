// What bench-submissions.ts measures: request timings over HTTP, full exports with the
// server's memory sampled, and the plan and index reads of the deep-page query.
import { createConnection } from 'mysql2/promise';
import { SubmissionSql } from '../../src/submissions/submission-sql.js';
import { connectionOptions } from '../shared/mysql.js';
import { procStatusMb } from '../shared/process.js';

export interface Stats {
  runs: number;
  median: number;
  p95: number;
  min: number;
  max: number;
}

export function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    runs: sorted.length,
    median: round(at(0.5)),
    p95: round(at(0.95)),
    min: round(sorted[0]),
    max: round(sorted[sorted.length - 1]),
  };
}

export async function timed(
  url: string,
  apiKey: string,
): Promise<{ ms: number; status: number; body: string }> {
  const started = performance.now();
  const res = await fetch(url, { headers: { 'x-api-key': apiKey } });
  const body = await res.text();
  return { ms: performance.now() - started, status: res.status, body };
}

/**
 * Runs the scenarios round-robin (one request of each per round), so background
 * noise on the machine hits all of them alike and their medians stay comparable.
 */
export async function measureInterleaved(
  scenarios: Record<string, string>,
  apiKey: string,
  runs: number,
): Promise<Record<string, Stats & { rows: number }>> {
  const samples: Record<string, number[]> = {};
  const rows: Record<string, number> = {};
  for (const [name, url] of Object.entries(scenarios)) {
    const first = await timed(url, apiKey);
    if (first.status !== 200) {
      throw new Error(
        `${name}: HTTP ${first.status} ${first.body.slice(0, 200)}`,
      );
    }
    rows[name] = (JSON.parse(first.body) as { data: unknown[] }).data.length;
    samples[name] = [];
  }
  for (let round = -3; round < runs; round++) {
    for (const [name, url] of Object.entries(scenarios)) {
      const result = await timed(url, apiKey);
      if (result.status !== 200) {
        throw new Error(`${name}: HTTP ${result.status}`);
      }
      if (round >= 0) samples[name].push(result.ms); // rounds -3..-1 warm up
    }
  }
  return Object.fromEntries(
    Object.keys(scenarios).map((name) => [
      name,
      { ...stats(samples[name]), rows: rows[name] },
    ]),
  );
}

export async function exportAll(
  url: string,
  apiKey: string,
  pid: number,
): Promise<{
  rows: number;
  bytes: number;
  seconds: number;
  rowsPerSecond: number;
  rssBeforeMb: number;
  peakRssMb: number;
  hwmMb: number;
}> {
  const rssBeforeMb = procStatusMb(pid, 'VmRSS');
  let peakRssMb = rssBeforeMb;
  const sampler = setInterval(() => {
    peakRssMb = Math.max(peakRssMb, procStatusMb(pid, 'VmRSS'));
  }, 50);
  const started = performance.now();
  const res = await fetch(url, { headers: { 'x-api-key': apiKey } });
  if (res.status !== 200 || !res.body) {
    clearInterval(sampler);
    throw new Error(`export: HTTP ${res.status} ${await res.text()}`);
  }
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) lines++;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peakRssMb = Math.max(peakRssMb, procStatusMb(pid, 'VmRSS'));
  const rows = url.includes('format=ndjson') ? lines : lines - 1;
  return {
    rows,
    bytes,
    seconds: Math.round(seconds * 100) / 100,
    rowsPerSecond: Math.round(rows / seconds),
    rssBeforeMb: Math.round(rssBeforeMb),
    peakRssMb: Math.round(peakRssMb),
    hwmMb: Math.round(procStatusMb(pid, 'VmHWM')),
  };
}

/**
 * EXPLAIN of the deep-page query as the service sends it, and how many index entries
 * MariaDB/MySQL actually read for it (Handler_read_* of one dedicated session).
 */
export async function explainDeepPage(
  url: string,
  formId: string,
  cursorAt: Date,
  cursorId: string,
): Promise<{ plan: string; handlerReads: Record<string, number> }> {
  const connection = await createConnection(connectionOptions(url));
  try {
    const { sql, params } = new SubmissionSql('mysql').rows({
      formId,
      filters: {},
      direction: 'DESC',
      after: { createdAt: cursorAt, id: cursorId },
      limit: 26,
    });
    const [explained] = await connection.query(`EXPLAIN ${sql}`, params);
    const plan = (
      explained as Array<{
        type: string;
        key: string | null;
        key_len: string;
        Extra: string;
      }>
    )
      .map(
        (row) =>
          `type=${row.type} key=${row.key} key_len=${row.key_len} extra="${row.Extra}"`,
      )
      .join('; ');
    await connection.query('FLUSH STATUS');
    await connection.query(sql, params);
    const [status] = await connection.query(
      "SHOW SESSION STATUS LIKE 'Handler_read%'",
    );
    const handlerReads: Record<string, number> = {};
    for (const row of status as Array<{
      Variable_name: string;
      Value: string;
    }>) {
      if (Number(row.Value) > 0) {
        handlerReads[row.Variable_name] = Number(row.Value);
      }
    }
    return { plan, handlerReads };
  } finally {
    await connection.end();
  }
}

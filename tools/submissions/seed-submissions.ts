// Bulk-inserts realistic submissions into one form, for load tests and benchmarks:
//
//   npm run seed:submissions -- --form <formId> --count 1000000 [--days 180] [--seed 1]
//
// Uses DATABASE_URL like the app. Rows get ULID ids and increasing createdAt values
// spread over the past --days days, and go in as multi-row INSERTs, several per
// transaction.
import 'reflect-metadata';
import { pathToFileURL } from 'node:url';
import { DataSource } from 'typeorm';
import { FormCounterSql } from '../../src/submissions/counters/form-counter-sql.js';
import {
  CounterChanges,
  writeCounterChanges,
} from '../../src/submissions/counters/form-counters.js';
import { ulid } from 'ulid';
import { loadConfig, type AppConfig } from '../../src/config/app-config.js';
import { buildDataSourceOptions } from '../../src/database/database-options.js';
import type { FieldDefinition } from '../../src/forms/form.entity.js';
import { sqlDatetime } from '../../src/common/database/sql-dates.js';
import {
  ALL_COLUMNS,
  SubmissionSql,
} from '../../src/submissions/submission-sql.js';
import {
  makeValueGenerator,
  ORIGINS,
  random,
  USER_AGENTS,
} from './seed-values.js';

export interface SeedOptions {
  formId: string;
  count: number;
  /** createdAt values are spread over the `days` days before `end`. */
  days?: number;
  end?: Date;
  /** Seed of the pseudo-random generator: the same seed gives the same values. */
  seed?: number;
  rowsPerStatement?: number;
  statementsPerTransaction?: number;
  onProgress?: (inserted: number) => void;
}

/** Inserts `count` generated submissions into the form; resolves with the row count. */
export async function seedSubmissions(
  dataSource: DataSource,
  options: SeedOptions,
): Promise<number> {
  const sql = new SubmissionSql(
    dataSource.options.type === 'better-sqlite3' ? 'sqlite' : 'mysql',
  );
  const q = (name: string) => sql.e(name);
  const counterSql = new FormCounterSql(sql.dialect);
  const rows = await dataSource.query<Array<{ fields: unknown }>>(
    `SELECT ${q('fields')} FROM ${q('form')} WHERE ${q('id')} = ?`,
    [options.formId],
  );
  if (rows.length === 0) throw new Error(`No form with id "${options.formId}"`);
  const rawFields = rows[0].fields;
  const fields = (
    typeof rawFields === 'string' ? JSON.parse(rawFields) : rawFields
  ) as FieldDefinition[];

  const rand = random(options.seed ?? 1);
  const nextValues = makeValueGenerator(fields, rand);
  const perStatement = options.rowsPerStatement ?? 1000;
  const perTransaction = options.statementsPerTransaction ?? 5;
  const end = (options.end ?? new Date()).getTime();
  const span = (options.days ?? 180) * 86_400_000;
  const start = end - span;
  const step = span / options.count;

  // The values below follow ALL_COLUMNS: id, formId, data, ip, userAgent, origin, createdAt,
  // spam, spamReasons (seeded submissions are clean), status (most handled: a few in
  // every hundred are new, a third open), assigneeId (nobody).
  const head = `INSERT INTO ${q('submission')} (${ALL_COLUMNS.map(q).join(', ')}) VALUES `;
  const tuple = `(${ALL_COLUMNS.map(() => '?').join(', ')})`;

  let inserted = 0;
  while (inserted < options.count) {
    await dataSource.transaction(async (manager) => {
      // The form's counters and per-day counts, kept in the same transaction as the rows.
      const changes = new CounterChanges();
      for (let s = 0; s < perTransaction && inserted < options.count; s++) {
        const n = Math.min(perStatement, options.count - inserted);
        const params: unknown[] = [];
        for (let i = 0; i < n; i++) {
          const ms = Math.floor(start + (inserted + i + rand()) * step);
          const roll = rand();
          const status = roll < 0.02 ? 'new' : roll < 0.35 ? 'open' : 'closed';
          changes.row(
            {
              formId: options.formId,
              spam: 0,
              status,
              createdAt: new Date(ms),
            },
            1,
          );
          params.push(
            ulid(ms),
            options.formId,
            JSON.stringify(nextValues()),
            `203.0.113.${Math.floor(rand() * 254) + 1}`,
            USER_AGENTS[Math.floor(rand() * USER_AGENTS.length)],
            ORIGINS[Math.floor(rand() * ORIGINS.length)],
            sqlDatetime(new Date(ms)),
            0,
            null,
            status,
            null,
          );
        }
        await manager.query(
          head + Array.from({ length: n }, () => tuple).join(', '),
          params,
        );
        inserted += n;
      }
      await writeCounterChanges(
        (text, values) => manager.query(text, values),
        counterSql,
        changes,
      );
    });
    options.onProgress?.(inserted);
  }
  return inserted;
}

const USAGE =
  'Usage: npm run seed:submissions -- --form <formId> --count <n> [--days 180] [--seed <n>]';

function parseArgs(argv: string[]): SeedOptions {
  const args = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i];
    if (!name.startsWith('--')) {
      throw new Error(`Unexpected argument "${name}"`);
    }
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) {
      throw new Error(`${name} needs a value`);
    }
    args.set(name.slice(2), value);
    i++;
  }
  const known = new Set(['form', 'count', 'days', 'seed']);
  for (const name of args.keys()) {
    if (!known.has(name)) throw new Error(`Unknown option --${name}`);
  }
  const whole = (name: string, fallback?: number): number => {
    const raw = args.get(name);
    if (raw === undefined) {
      if (fallback === undefined) throw new Error(`--${name} is required`);
      return fallback;
    }
    if (!/^\d+$/.test(raw) || Number(raw) < 1) {
      throw new Error(
        `--${name} must be a positive whole number, got "${raw}"`,
      );
    }
    return Number(raw);
  };
  const formId = args.get('form');
  if (!formId) throw new Error('--form <formId> is required');
  return {
    formId,
    count: whole('count'),
    days: whole('days', 180),
    seed: whole('seed', Date.now() % 2_147_483_647),
  };
}

async function main(): Promise<void> {
  let options: SeedOptions;
  let config: AppConfig;
  try {
    options = parseArgs(process.argv.slice(2));
    config = loadConfig(process.env);
  } catch (error) {
    console.error(
      `${error instanceof Error ? error.message : String(error)}\n${USAGE}`,
    );
    process.exit(1);
  }
  const dataSource = new DataSource(
    buildDataSourceOptions(config.database, false),
  );
  await dataSource.initialize();
  const started = performance.now();
  let lastReport = 0;
  try {
    const inserted = await seedSubmissions(dataSource, {
      ...options,
      onProgress: (n) => {
        if (n - lastReport >= 50_000 || n === options.count) {
          lastReport = n;
          const seconds = (performance.now() - started) / 1000;
          process.stderr.write(
            `  ${n.toLocaleString('en-US')} / ${options.count.toLocaleString('en-US')} rows (${Math.round(n / seconds).toLocaleString('en-US')} rows/s)\n`,
          );
        }
      },
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `Inserted ${inserted.toLocaleString('en-US')} submissions into form ${options.formId} in ${seconds.toFixed(1)} s (${Math.round(inserted / seconds).toLocaleString('en-US')} rows/s).`,
    );
  } finally {
    await dataSource.destroy();
  }
}

if (
  process.argv[1] &&
  import.meta.url === pathToFileURL(process.argv[1]).href
) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}

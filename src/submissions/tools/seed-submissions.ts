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
import { ulid } from 'ulid';
import { loadConfig, type AppConfig } from '../../config/app-config.js';
import { buildDataSourceOptions } from '../../database/database-options.js';
import type { FieldDefinition } from '../../forms/form.entity.js';

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

const FIRST_NAMES = [
  'Ada',
  'Grace',
  'Alan',
  'Edsger',
  'Barbara',
  'Donald',
  'Margaret',
  'Linus',
  'Frances',
  'Dennis',
  'Radia',
  'Ken',
  'Hedy',
  'Tim',
  'Katherine',
  'Guido',
  'Sophie',
  'John',
  'Annie',
  'Niklaus',
  'Lea',
  'Jürgen',
  'Amélie',
  'Sven',
  'Chloé',
  'Mateo',
  'Yuki',
  'Priya',
  'Omar',
  'Ingrid',
];
const LAST_NAMES = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Dijkstra',
  'Liskov',
  'Knuth',
  'Hamilton',
  'Torvalds',
  'Allen',
  'Ritchie',
  'Perlman',
  'Thompson',
  'Lamarr',
  'Berners-Lee',
  'Johnson',
  'van Rossum',
  'Wilson',
  'McCarthy',
  'Easley',
  'Wirth',
  'Müller',
  'Dubois',
  'Larsen',
  'García',
  'Tanaka',
  'Sharma',
  'Haddad',
  'Olsen',
  "O'Brien",
  'Nakamura',
];
const COMPANIES = [
  'Northwind Traders',
  'Contoso',
  'Fabrikam',
  'Initech',
  'Globex',
  'Umbrella Health',
  'Stark Logistics',
  'Wayne Foods',
  'Acme Corp',
  'Hooli',
  'Pied Piper',
  'Vandelay Industries',
  'Soylent',
  'Tyrell Systems',
  'Cyberdyne',
  'Wonka Confections',
  'Gringotts',
  'Monsters Inc',
  'Oceanic Air',
  'Blue Sun',
];
const DOMAINS = [
  'example.com',
  'example.org',
  'example.net',
  'mail.example',
  'corp.example',
];
const OPENINGS = ['Hello,', 'Hi there,', 'Good morning,', 'Dear team,', 'Hey,'];
const SUBJECTS = [
  'I would like a quote for',
  'Could you tell me more about',
  'We are interested in',
  'Please send pricing for',
  'I have a question about',
  'Is there a discount on',
];
const TOPICS = [
  'your annual plan',
  'the enterprise tier',
  'bulk licences',
  'an on-site workshop',
  'the API limits',
  'a partnership',
  'shipping to Europe',
  'the open-source edition',
  'data export options',
  'custom integrations',
];
const CLOSINGS = [
  'Thanks!',
  'Best regards.',
  'Looking forward to your reply.',
  'Cheers.',
  'Kind regards, and have a nice day.',
];
const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
  'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
];
const ORIGINS = [
  'https://www.example.com',
  'https://shop.example.com',
  'https://example.org',
  null,
];

/** mulberry32: a small, fast, seedable PRNG (quality is plenty for fake data). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CONTACT_FIELDS: FieldDefinition[] = [
  { id: 'name', type: 'text' },
  { id: 'email', type: 'email' },
  { id: 'company', type: 'text' },
  { id: 'message', type: 'textarea' },
];

function makeValueGenerator(
  fields: FieldDefinition[],
  rand: () => number,
): () => Record<string, string | number> {
  const pick = <T>(list: readonly T[]): T =>
    list[Math.floor(rand() * list.length)];
  const schema = fields.length > 0 ? fields : CONTACT_FIELDS;
  return () => {
    const first = pick(FIRST_NAMES);
    const last = pick(LAST_NAMES);
    const company = pick(COMPANIES);
    const values: Record<string, string | number> = {};
    for (const field of schema) {
      const id = field.id.toLowerCase();
      switch (field.type) {
        case 'email':
          values[field.id] =
            `${first}.${last}${Math.floor(rand() * 1000)}@${pick(DOMAINS)}`
              .toLowerCase()
              .replace(/[^a-z0-9.@-]/g, '');
          break;
        case 'textarea':
          values[field.id] =
            `${pick(OPENINGS)} ${pick(SUBJECTS)} ${pick(TOPICS)} for ${company}. ${pick(CLOSINGS)}`;
          break;
        case 'number':
          values[field.id] = Math.floor(rand() * 1000);
          break;
        case 'url':
          values[field.id] =
            `https://${company.toLowerCase().replace(/\W+/g, '')}.example`;
          break;
        case 'tel':
          values[field.id] =
            `+1 555 ${String(Math.floor(rand() * 10_000_000)).padStart(7, '0')}`;
          break;
        case 'date':
          values[field.id] = new Date(
            Date.UTC(2025, 0, 1 + Math.floor(rand() * 365)),
          )
            .toISOString()
            .slice(0, 10);
          break;
        case 'select':
          values[field.id] = field.options?.length
            ? pick(field.options)
            : 'other';
          break;
        case 'checkbox':
          values[field.id] = rand() < 0.5 ? 'on' : 'false';
          break;
        default:
          values[field.id] = id.includes('name')
            ? `${first} ${last}`
            : id.includes('company')
              ? company
              : `${pick(TOPICS)}`;
      }
    }
    return values;
  };
}

/** "YYYY-MM-DD HH:MM:SS.mmm" in UTC: how both MySQL and SQLite store datetime(3). */
function sqlDatetime(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
}

/** Inserts `count` generated submissions into the form; resolves with the row count. */
export async function seedSubmissions(
  dataSource: DataSource,
  options: SeedOptions,
): Promise<number> {
  const rows = await dataSource.query<Array<{ fields: unknown }>>(
    `SELECT ${dataSource.driver.escape('fields')} FROM ${dataSource.driver.escape('form')} WHERE ${dataSource.driver.escape('id')} = ?`,
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

  const q = (name: string) => dataSource.driver.escape(name);
  const columns = [
    'id',
    'formId',
    'data',
    'ip',
    'userAgent',
    'origin',
    'createdAt',
  ];
  const head = `INSERT INTO ${q('submission')} (${columns.map(q).join(', ')}) VALUES `;
  const tuple = `(${columns.map(() => '?').join(', ')})`;

  let inserted = 0;
  while (inserted < options.count) {
    await dataSource.transaction(async (manager) => {
      for (let s = 0; s < perTransaction && inserted < options.count; s++) {
        const n = Math.min(perStatement, options.count - inserted);
        const params: unknown[] = [];
        for (let i = 0; i < n; i++) {
          const ms = Math.floor(start + (inserted + i + rand()) * step);
          params.push(
            ulid(ms),
            options.formId,
            JSON.stringify(nextValues()),
            `203.0.113.${Math.floor(rand() * 254) + 1}`,
            USER_AGENTS[Math.floor(rand() * USER_AGENTS.length)],
            ORIGINS[Math.floor(rand() * ORIGINS.length)],
            sqlDatetime(ms),
          );
        }
        await manager.query(
          head + Array.from({ length: n }, () => tuple).join(', '),
          params,
        );
        inserted += n;
      }
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
    if (!name.startsWith('--'))
      throw new Error(`Unexpected argument "${name}"`);
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--'))
      throw new Error(`${name} needs a value`);
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
    if (!/^\d+$/.test(raw) || Number(raw) < 1)
      throw new Error(
        `--${name} must be a positive whole number, got "${raw}"`,
      );
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

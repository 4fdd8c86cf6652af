// The ceilings of the submit benchmark: the floor server (floor-server.ts) batching its
// INSERTs the way a commit queue does, which is the most this design can reach on a database.
// Requests that arrive while a batch is being written wait for the next one; every request
// is answered only after the batch holding its row has committed.
//
// - MySQL/MariaDB (`CEILING_DATABASE_URL=mysql://…`): one multi-row INSERT per batch (one
//   transaction), up to four batches at once on a mysql2 pool of 10, as Formgate's queue.
// - SQLite (`CEILING_DATABASE_URL=sqlite:/path`): one transaction of prepared INSERTs per
//   batch on better-sqlite3 (the driver Formgate loads on this Node), WAL with
//   synchronous=FULL, as Formgate opens it.
//
// The route is the floor's (bare-route.ts). With CEILING_KEYED=1 a request's Idempotency-Key
// also gets its idempotency_record row, written in the same batch transaction as the
// submissions (first, as Formgate writes it; on MySQL/MariaDB in the same one round trip):
// the same two rows per request a keyed Formgate submit writes.
//
//   CEILING_DATABASE_URL=… CEILING_FORM_ID=… CEILING_PORT=… [CEILING_SOURCE=…] [CEILING_KEYED=1] node ceiling-server.js
import { createRequire } from 'node:module';
import type { Database } from 'better-sqlite3';
import { sqliteDriverModule } from '../../src/database/sqlite-driver.js';
import { sqlDatetime } from '../../src/common/database/sql-dates.js';
import { IDEMPOTENCY_COLUMNS } from '../../src/idempotency/idempotency-record-sql.js';
import { benchPool, formFields } from '../shared/mysql.js';
import type { FieldDefinition } from '../../src/forms/form.entity.js';
import {
  serveBareSubmit,
  type BareRecord,
  type BareRow,
} from './bare-route.js';

const databaseUrl = process.env.CEILING_DATABASE_URL ?? '';
const formId = process.env.CEILING_FORM_ID ?? '';
const port = Number(process.env.CEILING_PORT ?? 3901);
const keyed = process.env.CEILING_KEYED === '1';
const MAX_BATCH = 500;

type Row = BareRow;
interface Waiting {
  row: Row;
  record?: BareRecord;
  done: (error?: unknown) => void;
}

/** Writes one batch of rows (and their Idempotency-Key records) as one transaction. */
type WriteBatch = (rows: Row[], records: BareRecord[]) => Promise<void>;

const SUBMISSION_COLUMNS =
  'id, formId, data, ip, userAgent, origin, createdAt' as const;

interface Store {
  fields: FieldDefinition[];
  write: WriteBatch;
  parallelBatches: number;
  close(): Promise<void>;
}

function parseFields(stored: unknown): FieldDefinition[] {
  return (
    typeof stored === 'string' ? JSON.parse(stored) : stored
  ) as FieldDefinition[];
}

async function mysqlStore(url: string): Promise<Store> {
  const pool = benchPool(url, { multipleStatements: keyed });
  const insertRows = `INSERT INTO submission (${SUBMISSION_COLUMNS}) VALUES ?`;
  const insertBoth = [
    'START TRANSACTION',
    `INSERT INTO idempotency_record (${IDEMPOTENCY_COLUMNS.join(', ')}) VALUES ?`,
    insertRows,
    'COMMIT',
  ].join('; ');
  return {
    fields: await formFields(pool, formId),
    parallelBatches: 4,
    write: async (batch, records) => {
      if (records.length === 0) await pool.query(insertRows, [batch]);
      else await pool.query(insertBoth, [records, batch]);
    },
    close: () => pool.end(),
  };
}

function sqliteStore(path: string): Store {
  const Driver = (sqliteDriverModule() ??
    createRequire(import.meta.url)('better-sqlite3')) as new (
    file: string,
  ) => Database;
  // Its own copy of Formgate's database (CEILING_SOURCE), so that Formgate's background
  // work never holds the lock while the ceiling is loaded.
  const source = process.env.CEILING_SOURCE;
  if (source) {
    const original = new Driver(source);
    original.exec(`VACUUM INTO '${path.replaceAll("'", "''")}'`);
    original.close();
  }
  const db = new Driver(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  const form = db
    .prepare('SELECT "fields" FROM "form" WHERE "id" = ?')
    .get(formId) as { fields: string } | undefined;
  if (!form) throw new Error(`form ${formId} not found`);
  const insert = db.prepare(
    'INSERT INTO "submission" ("id", "formId", "data", "ip", "userAgent", "origin", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const insertRecord = db.prepare(
    `INSERT INTO "idempotency_record" (${IDEMPOTENCY_COLUMNS.map((c) => `"${c}"`).join(', ')}) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const transaction = db.transaction((batch: Row[], records: BareRecord[]) => {
    for (const [id, fingerprint, status, response, at, expires] of records) {
      insertRecord.run(
        id,
        fingerprint,
        status,
        response,
        sqlDatetime(at),
        sqlDatetime(expires),
      );
    }
    for (const [id, form, data, ip, userAgent, origin, createdAt] of batch) {
      insert.run(id, form, data, ip, userAgent, origin, sqlDatetime(createdAt));
    }
  });
  return {
    fields: parseFields(form.fields),
    parallelBatches: 1,
    write: (batch, records) => {
      transaction.immediate(batch, records);
      return Promise.resolve();
    },
    close: () => {
      db.close();
      return Promise.resolve();
    },
  };
}

const store = databaseUrl.startsWith('sqlite:')
  ? sqliteStore(databaseUrl.slice('sqlite:'.length))
  : await mysqlStore(databaseUrl);

// The commit queue: whatever waits when a batch slot is free goes in the next batch.
const waiting: Waiting[] = [];
let writing = 0;
let scheduled = false;

function schedule(): void {
  if (scheduled || writing >= store.parallelBatches) return;
  scheduled = true;
  setImmediate(flush);
}

function flush(): void {
  scheduled = false;
  while (waiting.length > 0 && writing < store.parallelBatches) {
    const batch = waiting.splice(0, MAX_BATCH);
    writing += 1;
    const records = batch.flatMap((w) => (w.record ? [w.record] : []));
    store
      .write(
        batch.map((w) => w.row),
        records,
      )
      .then(
        () => finish(batch),
        (error: unknown) => finish(batch, error),
      );
  }
}

function finish(batch: Waiting[], error?: unknown): void {
  writing -= 1;
  for (const w of batch) w.done(error);
  if (waiting.length > 0) schedule();
}

function commit(row: Row, record?: BareRecord): Promise<void> {
  return new Promise((resolve, reject) => {
    waiting.push({
      row,
      record,
      done: (error) => (error === undefined ? resolve() : reject(error)),
    });
    schedule();
  });
}

await serveBareSubmit({
  formId,
  fields: store.fields,
  port,
  store: commit,
  close: () => store.close(),
  keyed,
});

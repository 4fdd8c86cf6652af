// One way to reach a table (docs/architecture.md, "Data access"): every table has one
// `*.repository.ts`, dialect SQL lives in the `*-sql.ts` beside it, and everything else
// calls a repository — a service may open a transaction and hand its EntityManager to
// repository methods, never use it on a table itself. This spec reads the sources and
// fails on any other file that reaches a table through TypeORM, runs SQL or writes it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = dirname(fileURLToPath(import.meta.url));

/** What reaching a table looks like, each with what it is. */
const TABLE_ACCESS: ReadonlyArray<readonly [RegExp, string]> = [
  [/@InjectRepository\s*\(/, 'injects a TypeORM repository'],
  [/\bInjectEntityManager\b/, 'injects an EntityManager'],
  [/(?<![\w.])Repository</, 'holds a TypeORM Repository<T>'],
  [/\.getRepository\s*\(/, 'takes a TypeORM repository of a table'],
  [/\.createQueryBuilder\s*\(/, 'builds a query'],
  [/\.query\s*[<(]/, 'runs SQL'],
  [
    /['"`][^'"`\n]*\b(?:SELECT\s[^'"`\n]*\bFROM|INSERT\s+(?:OR\s+IGNORE\s+|IGNORE\s+)?INTO|DELETE\s+FROM|UPDATE\s+\S+\s+SET)\s/,
    'writes SQL of its own (dialect SQL lives in a *-sql.ts)',
  ],
  [
    /\.(?:insert|update|upsert|delete|save|remove|find|findBy|findOne|findOneBy|findOneOrFail|findAndCount|count|countBy|exists|existsBy|increment|decrement)\s*\(\s*[A-Z]\w*\s*[,)]/,
    'uses an EntityManager on an entity',
  ],
];

/**
 * The files that may still run SQL of their own, each with why. Only for what is not a
 * table's statements (a probe, the migrations' bookkeeping) or where going through a
 * repository would cost the submit path its speed.
 */
const ALLOWED: Readonly<Record<string, string>> = {
  'common/database/database-state.service.ts':
    'the probe (SELECT 1) that says whether the database answers: it reaches no table',
  'common/database/unknown-migrations.ts':
    "reads the migrations table TypeORM keeps, to refuse a database a newer release migrated: the migrations' bookkeeping, no table of Formgate's",
  'submit/commit/mysql-submission-writer.ts':
    "the submit path's commit queue on MySQL/MariaDB: a batch is one multi-statement round trip on a mysql2 pool of its own, which no repository method could send without a second round trip",
};

/**
 * Folders (ending in /) and files another piece of work converts or has just rewritten,
 * each with why: they still reach tables their own way until that lands (then the entry
 * goes; this spec says so once nothing there does).
 */
const NOT_YET: Readonly<Record<string, string>> = {};

function reachesTables(text: string): boolean {
  return TABLE_ACCESS.some(([pattern]) => pattern.test(text));
}

/** The files whose work is data access: repositories, their SQL, the DataSource. */
function isDataAccess(path: string): boolean {
  return (
    path.endsWith('.repository.ts') ||
    path.endsWith('-sql.ts') ||
    path.startsWith('database/')
  );
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')
      ? [path]
      : [];
  });
}

/** The code of a file without its comments (a comment may name `.query(`). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

/** `file: what it does` for every place outside data access that reaches a table. */
function offenders(): string[] {
  return sourceFiles(SRC).flatMap((file) => {
    const path = relative(SRC, file).split(sep).join('/');
    if (isDataAccess(path) || path in ALLOWED) return [];
    if (Object.keys(NOT_YET).some((entry) => path.startsWith(entry))) {
      return [];
    }
    const text = code(readFileSync(file, 'utf8'));
    return TABLE_ACCESS.filter(([pattern]) => pattern.test(text)).map(
      ([, what]) => `${path}: ${what}`,
    );
  });
}

describe('data access', () => {
  it('recognises each way of reaching a table', () => {
    const samples = [
      '@InjectRepository(Form) private readonly forms: Repository<Form>',
      'constructor(@InjectEntityManager() manager)',
      'return this.dataSource.getRepository(User).findOneBy({ id });',
      'await this.dataSource.query<Row[]>(sql, params);',
      'await runner.query(sql, params, true);',
      'await manager.insert(FormDomain, row);',
      'await m.delete(ChatChannel, { id });',
      'this.dataSource.createQueryBuilder()',
      'const SQL = \'DELETE FROM "x" WHERE "id" = ?\';',
      "`UPDATE ${q('form')} SET ${q('hits')} = ?`",
      "'INSERT IGNORE INTO `t` (`id`) VALUES ?'",
    ];
    for (const sample of samples) {
      expect(reachesTables(sample), sample).toBe(true);
    }
    const innocent = [
      'private readonly forms: FormRepository',
      'await this.forms.in(manager).insert(row);',
      'this.waiting.delete(key);',
      'const url = new URL(request.url).search;',
      'map.delete(id)',
      "'Select a file from your computer'",
      '`Deleted ${count} rows from the form`',
    ];
    for (const sample of innocent) {
      expect(reachesTables(sample), sample).toBe(false);
    }
  });

  it('goes through a repository everywhere else', () => {
    expect(offenders()).toEqual([]);
  });

  it('allows only files that exist and still need it', () => {
    for (const [path, reason] of Object.entries(ALLOWED)) {
      const text = code(readFileSync(join(SRC, path), 'utf8'));
      expect(reason.length, path).toBeGreaterThan(20);
      expect(
        reachesTables(text),
        `${path} no longer reaches a table: drop it from ALLOWED`,
      ).toBe(true);
    }
  });

  it('waits only for folders where something still reaches a table', () => {
    for (const [entry, reason] of Object.entries(NOT_YET)) {
      const path = join(SRC, entry);
      const files = !existsSync(path)
        ? []
        : entry.endsWith('/')
          ? sourceFiles(path)
          : [path];
      const waiting = files.filter(
        (file) => !isDataAccess(relative(SRC, file).split(sep).join('/')),
      );
      expect(reason.length, entry).toBeGreaterThan(20);
      expect(
        waiting.some((file) => reachesTables(code(readFileSync(file, 'utf8')))),
        `${entry} is gone or goes through repositories now: drop it from NOT_YET`,
      ).toBe(true);
    }
  });
});

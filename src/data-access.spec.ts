// One way to reach a table (docs/architecture.md, "Data access"): every table has one
// `*.repository.ts`, dialect SQL lives in the `*-sql.ts` beside it, and everything else
// calls a repository — a service may open a transaction and hand its EntityManager to
// repository methods, never use it on a table itself. This spec reads the sources and
// fails on any other file that reaches a table through TypeORM or runs SQL.
import { readdirSync, readFileSync } from 'node:fs';
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
    /\.(?:insert|update|upsert|delete|save|remove|find|findBy|findOne|findOneBy|findOneOrFail|findAndCount|count|countBy|exists|existsBy|increment|decrement)\s*\(\s*[A-Z]\w*\s*[,)]/,
    'uses an EntityManager on an entity',
  ],
];

/**
 * The files that may still run SQL of their own, each with why. Only for what is not a
 * table's statements (a probe, the migrations' bookkeeping) or where going through a
 * repository would cost the submit path its speed.
 */
const ALLOWED: Readonly<Record<string, string>> = {};

/** The files whose work is data access: repositories, their SQL, the DataSource. */
function isDataAccess(path: string): boolean {
  return (
    path.endsWith('.repository.ts') ||
    path.endsWith('-sql.ts') ||
    path.startsWith(`database${sep}`)
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
    const path = relative(SRC, file);
    if (isDataAccess(path) || path in ALLOWED) return [];
    const text = code(readFileSync(file, 'utf8'));
    return TABLE_ACCESS.filter(([pattern]) => pattern.test(text)).map(
      ([, what]) => `${path.split(sep).join('/')}: ${what}`,
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
    ];
    for (const sample of samples) {
      expect(
        TABLE_ACCESS.some(([pattern]) => pattern.test(sample)),
        sample,
      ).toBe(true);
    }
    const innocent = [
      'private readonly forms: FormRepository',
      'await this.forms.in(manager).insert(row);',
      'this.waiting.delete(key);',
      'const url = new URL(request.url).search;',
      'map.delete(id)',
    ];
    for (const sample of innocent) {
      expect(
        TABLE_ACCESS.some(([pattern]) => pattern.test(sample)),
        sample,
      ).toBe(false);
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
        TABLE_ACCESS.some(([pattern]) => pattern.test(text)),
        `${path} no longer reaches a table: drop it from ALLOWED`,
      ).toBe(true);
    }
  });
});

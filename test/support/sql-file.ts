// The SQL a repository runs, written for review as a `.sql` file per dialect: each statement
// under a `-- Builder.method` header, laid out one clause a line, with its parameters below.
// The unit specs of the `*-sql.ts` builders record what they build and compare the whole file
// (`toMatchFileSnapshot`), so a change to a statement shows as a readable diff.

/** The clauses that start a line, longest first so `ORDER BY` wins over `OR`. */
const CLAUSES = [
  'ON DUPLICATE KEY UPDATE',
  'ON CONFLICT',
  'INSERT INTO',
  'DELETE FROM',
  'UNION ALL',
  'ORDER BY',
  'GROUP BY',
  'LEFT JOIN',
  'INNER JOIN',
  'CROSS JOIN',
  'FOR UPDATE',
  'RETURNING',
  'SELECT',
  'UPDATE',
  'VALUES',
  'HAVING',
  'OFFSET',
  'WHERE',
  'UNION',
  'LIMIT',
  'FROM',
  'JOIN',
  'SET',
  'AND',
  'OR',
];

function startsClause(sql: string, at: number): string | undefined {
  if (at > 0 && /[\w$]/.test(sql[at - 1])) return undefined;
  return CLAUSES.find(
    (clause) =>
      sql.startsWith(clause, at) &&
      !/[\w$]/.test(sql[at + clause.length] ?? ''),
  );
}

/** One clause a line, indented by how deep in parentheses it stands; quoted text untouched. */
export function formatSql(sql: string): string {
  let out = '';
  let depth = 0;
  let quote: string | undefined;
  for (let at = 0; at < sql.length; at++) {
    const char = sql[at];
    if (quote) {
      out += char;
      if (char === quote) quote = undefined;
      continue;
    }
    if (char === "'" || char === '"' || char === '`') {
      quote = char;
      out += char;
      continue;
    }
    if (char === '(') depth++;
    if (char === ')') depth = Math.max(0, depth - 1);
    const clause = startsClause(sql, at);
    if (clause) {
      out =
        out.trim() === ''
          ? clause
          : `${out.trimEnd()}\n${'  '.repeat(depth)}${clause}`;
      at += clause.length - 1;
      continue;
    }
    out += char;
  }
  return out;
}

function shown(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item === undefined ? '(undefined)' : item,
  );
}

function statementText(statement: unknown): string {
  if (typeof statement === 'string') return `${formatSql(statement)};`;
  if (statement && typeof statement === 'object' && 'sql' in statement) {
    const { sql, ...rest } = statement as Record<string, unknown>;
    const lines = [`${formatSql(String(sql))};`];
    for (const [key, value] of Object.entries(rest)) {
      lines.push(`-- ${key}: ${shown(value)}`);
    }
    return lines.join('\n');
  }
  return `-- value: ${shown(statement)}`;
}

/** The statements of one builder on one dialect, in the order the spec records them. */
export class SqlFile {
  private readonly entries: string[] = [];

  constructor(private readonly builder: string) {}

  /** Records `statement` under `-- Builder.method`, and hands it back. */
  add<T>(method: string, statement: T): T {
    this.entries.push(
      `-- ${this.builder}.${method}\n${statementText(statement)}\n`,
    );
    return statement;
  }

  /** Records what `build` adds under a `-- # title` line saying what it is about. */
  section(title: string, build: () => void): void {
    this.entries.push(`-- # ${title}\n`);
    build();
  }

  text(): string {
    return this.entries.join('\n');
  }
}

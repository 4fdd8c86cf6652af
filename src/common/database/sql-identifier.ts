// The one identifier quoter of the hand-written SQL: every `*-sql.ts` quotes its table and
// column names through it, so a name is escaped the same way in every statement.
import type { SqlDialect } from './sql-statement.js';

/** Quotes an identifier the way the TypeORM driver of the dialect does. */
export function quoteIdentifier(dialect: SqlDialect, name: string): string {
  return dialect === 'sqlite'
    ? `"${name.replaceAll('"', '""')}"`
    : '`' + name.replaceAll('`', '``') + '`';
}

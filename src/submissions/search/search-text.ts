// What the full-text index holds of a submission (its values, file names, never field
// names), and when a `q` can be answered from it: every word of the search at least three
// letters or digits and not one InnoDB leaves out — otherwise the list scans (docs/inbox.md).
import type { SqlDialect } from '../../common/database/sql-statement.js';

/** InnoDB's default stopwords (INFORMATION_SCHEMA.INNODB_FT_DEFAULT_STOPWORD). */
const STOPWORDS = new Set(
  (
    'a about an are as at be by com de en for from how i in is it la of on or ' +
    'that the this to was what when where who will with und www'
  ).split(' '),
);

/** The shortest word InnoDB indexes (innodb_ft_min_token_size). */
export const MIN_WORD = 3;

/** The text indexed for a submission's data (JSON text or an object). */
export function searchText(data: unknown): string {
  let value: unknown = data;
  if (typeof data === 'string') {
    try {
      value = JSON.parse(data);
    } catch {
      return data;
    }
  }
  const parts: string[] = [];
  const add = (item: unknown): void => {
    if (item === null || item === undefined) return;
    if (typeof item === 'string') parts.push(item);
    else if (typeof item === 'number' || typeof item === 'boolean') {
      parts.push(String(item));
    } else if (Array.isArray(item)) item.forEach(add);
    else if (typeof item === 'object' && 'name' in item) {
      add((item as { name: unknown }).name);
    }
  };
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    Object.values(value).forEach(add);
  }
  return parts.join('\n');
}

/** The words of a search, or undefined when the index cannot answer it. */
export function searchWords(q: string): string[] | undefined {
  if (/[_']/.test(q)) return undefined;
  const words = q
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
  if (words.length === 0 || words.length > 8) return undefined;
  if (words.some((w) => [...w].length < MIN_WORD || STOPWORDS.has(w))) {
    return undefined;
  }
  return words;
}

/**
 * The index query of the words: each a word prefix, all required (FTS5 `"w"*` terms;
 * InnoDB boolean mode `+w*`).
 */
export function matchQuery(
  words: readonly string[],
  dialect: SqlDialect,
): string {
  return dialect === 'sqlite'
    ? words.map((w) => `"${w.replaceAll('"', '""')}"*`).join(' ')
    : words.map((w) => `+${w}*`).join(' ');
}

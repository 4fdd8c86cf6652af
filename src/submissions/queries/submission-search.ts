// `q` search: a case-insensitive substring match against the stored values of a
// submission (not its keys). MySQL/MariaDB match the JSON text of the values
// (JSON_EXTRACT(data, '$.*')); SQLite calls a small function registered on the
// connection, because its LOWER() and LIKE only fold ASCII.

/** The text between the quotes of a JSON string: how `text` appears inside stored JSON. */
export function jsonStringContent(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** The escape character of our LIKE patterns (`ESCAPE '!'`, the same on every dialect). */
export const LIKE_ESCAPE = '!';

/** A LIKE pattern matching `text` anywhere, with %, _ and ! taken literally. */
export function likeContains(text: string): string {
  return `%${text.replace(/[!%_]/g, (c) => LIKE_ESCAPE + c)}%`;
}

/** The LIKE pattern for MySQL/MariaDB, where values are compared in their JSON spelling. */
export function mysqlSearchPattern(needle: string): string {
  return likeContains(jsonStringContent(needle.toLowerCase()));
}

/** Name of the SQLite function that answers 1 when a value of `data` contains the needle. */
export const SQLITE_SEARCH_FUNCTION = 'formgate_values_contain';

/**
 * true when one of the top-level values of the JSON object `dataJson` contains
 * `needle` (already lower-cased). Strings are compared by their text, other values by
 * their JSON spelling (42, true, null), as on MySQL.
 */
export function valuesContain(dataJson: unknown, needle: string): boolean {
  let data: unknown = dataJson;
  if (typeof dataJson === 'string') {
    try {
      data = JSON.parse(dataJson);
    } catch {
      return false;
    }
  }
  if (data === null || typeof data !== 'object') return false;
  for (const value of Object.values(data)) {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    if (text !== undefined && text.toLowerCase().includes(needle)) return true;
  }
  return false;
}

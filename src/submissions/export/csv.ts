// RFC 4180 CSV writing with spreadsheet formula-injection protection (OWASP "CSV
// injection"): a text cell that a spreadsheet would read as a formula gets a leading '.

/**
 * A cell Excel, LibreOffice or Google Sheets may read as a formula: one that starts with a
 * tab or CR, or whose first character after any white space (spaces, newlines, NBSP, which
 * spreadsheets skip) is `=`, `+`, `-` or `@`, or their full-width forms ＝ ＋ － ＠.
 */
const FORMULA_START = /^(?:[\t\r]|\s*[=+\-@\uff1d\uff0b\uff0d\uff20])/;
const NEEDS_QUOTES = /[",\r\n]/;

export const CSV_LINE_END = '\r\n';

/**
 * The text of one cell. Strings that may start a formula (FORMULA_START) are prefixed with `'`.
 * JSON numbers are written as they are: a spreadsheet reads `-5` as a number, never a
 * formula, and neutralising it would turn a numeric column into text.
 */
export function csvValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') {
    return Number.isFinite(value) ? String(value) : '';
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** Quotes a cell when it holds a comma, quote, CR or LF; quotes inside are doubled. */
export function csvQuote(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvCell(value: unknown): string {
  return csvQuote(csvValue(value));
}

/** One record, CRLF-terminated. */
export function csvRow(values: readonly unknown[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) line += ',';
    line += csvCell(values[i]);
  }
  return line + CSV_LINE_END;
}

// RFC 4180 CSV writing with spreadsheet formula-injection protection (OWASP "CSV
// injection"): a text cell that a spreadsheet would read as a formula gets a leading '.

/** Characters that make Excel, LibreOffice or Google Sheets treat a cell as a formula. */
const FORMULA_TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r']);
const NEEDS_QUOTES = /[",\r\n]/;

export const CSV_LINE_END = '\r\n';

/**
 * The text of one cell. Strings starting with a formula trigger are prefixed with `'`.
 * JSON numbers are written as they are: a spreadsheet reads `-5` as a number, never a
 * formula, and neutralising it would turn a numeric column into text.
 */
export function csvValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number')
    return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 0 && FORMULA_TRIGGERS.has(text[0]) ? `'${text}` : text;
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

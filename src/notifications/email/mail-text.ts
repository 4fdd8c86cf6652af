// Small text helpers for messages: header values that cannot break a header, and HTML
// that shows every value as text.

/** Line breaks and other control characters, the Unicode line and paragraph separators included. */
const UNSAFE_IN_HEADER = /[\p{Cc}\u2028\u2029]/gu;

/**
 * A one-line header value: every line break and control character becomes a space, the
 * ends are trimmed, and it is cut to `max` characters (never inside a character).
 */
export function headerText(value: string, max: number): string {
  const line = value.replace(UNSAFE_IN_HEADER, ' ').trim();
  // Counted in code points, so a cut never splits a surrogate pair.
  let end = 0;
  let count = 0;
  for (const character of line) {
    if (count === max) return line.slice(0, end).trimEnd();
    end += character.length;
    count += 1;
  }
  return line;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]);
}

/** "2026-11-23 05:04:09 UTC" */
export function utcTime(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

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

/** Every way a text part may break a line (mail readers honour more than `\n`). */
const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/;
/** Control characters but the tab. */
const INVISIBLE = /[\p{Cc}\u2028\u2029]/gu;

function escapeControls(text: string, keepTab: boolean): string {
  return text.replace(INVISIBLE, (character) =>
    keepTab && character === '\t'
      ? character
      : `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * A label on one line of a text part: control characters are written as escapes
 * (`\u000a`), so no key can start a line of its own (and fake one of the message's).
 */
export function oneLine(text: string): string {
  return escapeControls(text, false);
}

/** The lines of a value in a text part; other control characters but tabs are escaped. */
export function textLines(text: string): string[] {
  return text.split(LINE_BREAK).map((line) => escapeControls(line, true));
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

// The one parser of redirect targets: a form's `redirectUrl` when it is saved, and a
// submission's `_redirect` when a browser is about to be sent there. Both must be an
// absolute http(s) URL written out in full, so nothing a browser would read differently
// from this parser (a backslash, a missing "//", user info, control characters) passes.

/** Longest redirect URL accepted, after normalisation. */
export const MAX_REDIRECT_URL_LENGTH = 2000;

const ABSOLUTE_HTTP = /^https?:\/\/[^/]/i;

/** Whitespace, controls and backslashes: the WHATWG parser strips or rewrites them. */
export function hasUnsafeCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code <= 0x20 || code === 0x7f || code === 0x5c) return true;
  }
  return /\s/.test(text);
}

/**
 * The URL when `text` is an absolute http or https URL without user info, else null.
 * The result's `href` is the canonical form (punycode host, percent-encoded path).
 */
export function parseAbsoluteHttpUrl(text: unknown): URL | null {
  if (typeof text !== 'string' || !ABSOLUTE_HTTP.test(text)) return null;
  if (hasUnsafeCharacter(text)) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '' || url.hostname === '') {
    return null;
  }
  return url;
}

/** A hostname without its trailing dot (`example.com.` is `example.com`). */
export function bareHostname(url: URL): string {
  const host = url.hostname;
  return host.endsWith('.') ? host.slice(0, -1) : host;
}

// `https://example.com///` → `https://example.com`: a linear walk instead of /\/+$/, which
// backtracks quadratically on a long run of slashes that does not end the text.
export function withoutTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x2f) end -= 1;
  return text.slice(0, end);
}

// The one rule for a name a client chose (an uploaded file's), wherever it is kept or shown:
// the stored row, the notification mail, the dashboard's pages, a download's
// Content-Disposition. No control character (C0, DEL, C1, the Unicode line and paragraph
// separators), which could start a line of its own in a mail (`a\r\nreal.txt`) or break a
// header; no direction or invisible formatting mark (LRM/RLM, ALM, embeddings, overrides,
// isolates, zero-width characters), which could make `inv\u202eexe.txt` read as `invtxt.exe`.

/** Every character the rule drops. */
const UNSAFE_IN_NAME =
  /[\p{Cc}\u2028\u2029\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/gu;

/** `name` without control characters and direction marks (nothing else changes). */
export function safeName(name: string): string {
  return name.replace(UNSAFE_IN_NAME, '');
}

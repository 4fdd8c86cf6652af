/** `text` without `char` at either end; a loop, where `/-+$/` would backtrack on long runs. */
function trimChar(text: string, char: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text[start] === char) start++;
  while (end > start && text[end - 1] === char) end--;
  return text.slice(start, end);
}

/** ASCII, lower-case, dash-separated form of a form name for a download file name. */
export function slugify(name: string): string {
  const dashed = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');
  return trimChar(trimChar(dashed, '-').slice(0, 60), '-') || 'form';
}

/** `<form-name-slug>-submissions-<YYYY-MM-DD>.<csv|ndjson>` (UTC date). */
export function exportFilename(
  formName: string,
  extension: string,
  now = new Date(),
): string {
  return `${slugify(formName)}-submissions-${now.toISOString().slice(0, 10)}.${extension}`;
}

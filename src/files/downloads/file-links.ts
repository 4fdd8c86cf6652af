// The download links notifications carry (docs/files.md): in a submission's data, each
// file value — `{id, name, size, type, sha256}`, or an array of them — of a file that is
// stored for that submission gets `url`, a signed link valid 7 days. Pure: the caller says
// which file ids the submission really has, so a value merely shaped like a file never
// gets a link.
import type { DownloadLinks } from './download-links.js';

type FileValue = Record<string, unknown> & { id: string };

function isFileValue(value: unknown): value is FileValue {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as { id?: unknown }).id === 'string' &&
    typeof (value as { sha256?: unknown }).sha256 === 'string'
  );
}

/** Whether any value of `data` looks like a file (so its submission is worth a lookup). */
export function mayHoldFiles(data: Readonly<Record<string, unknown>>): boolean {
  return Object.values(data).some(
    (value) =>
      isFileValue(value) || (Array.isArray(value) && value.some(isFileValue)),
  );
}

/** `data` with `url` in each value of a stored file; `data` itself when there is none. */
export function withDownloadLinks(
  data: Record<string, unknown>,
  storedIds: ReadonlySet<string> | undefined,
  links: DownloadLinks,
  now = new Date(),
): Record<string, unknown> {
  if (storedIds === undefined || storedIds.size === 0) return data;
  const linked = (value: unknown): unknown =>
    isFileValue(value) && storedIds.has(value.id)
      ? { ...value, url: links.url(value.id, now) }
      : value;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    result[key] = Array.isArray(value) ? value.map(linked) : linked(value);
  }
  return result;
}

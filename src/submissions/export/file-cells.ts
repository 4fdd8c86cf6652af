// How a CSV cell shows a file field's value: never the stored JSON, but each file's name
// and its download link, one file a line (docs/files.md).

interface FileValue {
  id: string;
  name: string;
}

function isFileValue(value: unknown): value is FileValue {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as { id?: unknown }).id === 'string' &&
    typeof (value as { name?: unknown }).name === 'string' &&
    typeof (value as { sha256?: unknown }).sha256 === 'string'
  );
}

/** The files a value holds (one, or a list of them), or null for any other value. */
function filesOf(value: unknown): FileValue[] | null {
  if (isFileValue(value)) return [value];
  return Array.isArray(value) && value.length > 0 && value.every(isFileValue)
    ? value
    : null;
}

/**
 * `cv.pdf (https://forms.example.com/files/<token>)` per file, one a line; a file without
 * a link (none stored under its id) by its name alone. Other values are left as they are.
 */
export function fileCell(
  value: unknown,
  links: ReadonlyMap<string, string> | undefined,
): unknown {
  const files = filesOf(value);
  if (files === null) return value;
  return files
    .map((file) => {
      const link = links?.get(file.id);
      return link === undefined ? file.name : `${file.name} (${link})`;
    })
    .join('\n');
}

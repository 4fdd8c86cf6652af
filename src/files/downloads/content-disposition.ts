// The Content-Disposition of a download (RFC 6266): always `attachment`, with an ASCII
// `filename` for old clients and the real name in `filename*` (RFC 8187, UTF-8). The name
// is a client's: stripped of what could mislead or break out — control characters and
// direction marks (common/values/safe-name.ts), path separators — and kept to 255 characters
// with its extension.

import { safeName } from '../../common/values/safe-name.js';

const MAX_NAME = 255;

/** The name as offered for saving: no control or direction marks, no path, at most 255 characters. */
export function safeFileName(name: string): string {
  let safe = safeName(name).replace(/[/\\]/g, '_').trim();
  if (safe === '' || safe === '.' || safe === '..') safe = 'file';
  const characters = Array.from(safe);
  if (characters.length <= MAX_NAME) return safe;
  const dot = safe.lastIndexOf('.');
  const ext = dot > 0 ? Array.from(safe.slice(dot)) : [];
  const keep = ext.length > 0 && ext.length <= 16 ? ext : [];
  return characters.slice(0, MAX_NAME - keep.length).join('') + keep.join('');
}

/** RFC 8187 value-chars: everything but attr-char percent-encoded, as UTF-8. */
function encodeExtValue(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

export function attachmentDisposition(name: string): string {
  const safe = safeFileName(name);
  const ascii = safe.replace(/[^\x20-\x7e]|["%;\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeExtValue(safe)}`;
}

/** ASCII, lower-case, dash-separated form of a form name for a download file name. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || 'form';
}

/** `<form-name-slug>-submissions-<YYYY-MM-DD>.<csv|ndjson>` (UTC date). */
export function exportFilename(
  formName: string,
  extension: string,
  now = new Date(),
): string {
  return `${slugify(formName)}-submissions-${now.toISOString().slice(0, 10)}.${extension}`;
}

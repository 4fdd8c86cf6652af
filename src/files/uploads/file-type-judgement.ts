// What an uploaded file is, judged from its bytes and its extension, never from the
// Content-Type a client sent (DESIGN section 13, docs/files.md):
// - bytes of a known format (a magic number, found by the `file-type` package): that
//   format must be accepted by the field and the name's extension must agree with it;
// - bytes without one: accepted only as a text format that the name's extension names and
//   the field accepts, and only when they hold no markup;
// - HTML, SVG and XML are accepted only when their MIME type is listed explicitly.
// `detectFormat` reads the first bytes; the rest is pure and synchronous. `file-type` is
// loaded with the first file, not at start: most installations never receive one.

/** Bytes `file-type` needs to recognise every format it knows. */
export const HEAD_BYTES = 4100;

export interface DetectedFormat {
  ext: string;
  mime: string;
}

export type Judgement =
  { ok: true; type: string; text: boolean } | { ok: false; reason: string };

/** Text formats a file without a magic number may be, by extension. */
export const TEXT_FORMATS: Readonly<Record<string, string>> = {
  txt: 'text/plain',
  text: 'text/plain',
  log: 'text/plain',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  md: 'text/markdown',
  json: 'application/json',
};

/** Markup formats, accepted only when their MIME type is listed in `accept`. */
const MARKUP_FORMATS: Readonly<Record<string, string>> = {
  html: 'text/html',
  htm: 'text/html',
  xhtml: 'application/xhtml+xml',
  svg: 'image/svg+xml',
  xml: 'application/xml',
};
const MARKUP_MIMES = new Set([
  'text/html',
  'application/xhtml+xml',
  'image/svg+xml',
  'application/xml',
  'text/xml',
]);

/** Other names of one extension (the canonical one is what `file-type` says). */
const EXTENSION_ALIASES: Readonly<Record<string, string>> = {
  jpeg: 'jpg',
  jpe: 'jpg',
  jfif: 'jpg',
  tiff: 'tif',
  mpeg: 'mpg',
  htm: 'html',
  oga: 'ogg',
  heif: 'heic',
};

/**
 * Markup a browser could render: an HTML, SVG or XML start, or a tag that runs script.
 * Checked over every byte of a text file (text-scan.ts carries the tail between chunks).
 */
export const MARKUP =
  /<(?:!doctype|\?xml|!--|html|head|body|script|iframe|svg|style|object|embed|meta|link|frameset|frame|img|a\s|xml|math|form|base|template)\b/i;

/** The lower-case extension of a file name, without the dot ('' when it has none). */
export function extensionOf(name: string): string {
  const base = name.slice(
    Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1,
  );
  const dot = base.lastIndexOf('.');
  if (dot <= 0 || dot === base.length - 1) return '';
  const ext = base.slice(dot + 1).toLowerCase();
  return EXTENSION_ALIASES[ext] ?? ext;
}

/** An `accept` entry: a MIME type, `type/*`, or `.ext`. */
function normalizeAccept(entry: string): string {
  const lower = entry.trim().toLowerCase();
  if (lower.startsWith('.')) {
    return `.${EXTENSION_ALIASES[lower.slice(1)] ?? lower.slice(1)}`;
  }
  return lower;
}

/** Whether a format (its MIME type and extension) is listed by `accept`. */
function accepts(
  accept: readonly string[],
  mime: string,
  ext: string,
): boolean {
  const markup = MARKUP_MIMES.has(mime);
  return accept.map(normalizeAccept).some((entry) => {
    if (entry === mime) return true;
    // Markup passes only by its exact MIME type, never by `type/*` or an extension.
    if (markup) return false;
    if (entry.startsWith('.')) return entry === `.${ext}`;
    if (entry.endsWith('/*')) return mime.startsWith(entry.slice(0, -1));
    return false;
  });
}

/** Whether the bytes look like text: no NUL byte among them. */
function looksLikeText(head: Uint8Array): boolean {
  return !head.includes(0);
}

/**
 * The judgement of a file from its first bytes (`head`, up to HEAD_BYTES), the format
 * detected in them (or undefined), its name and the field's `accept` (absent: any format
 * but markup). For a text file the caller still scans the rest of the bytes for MARKUP.
 */
export function judgeFileType(input: {
  head: Uint8Array;
  detected: DetectedFormat | undefined;
  name: string;
  accept: readonly string[] | undefined;
}): Judgement {
  const { head, detected, name } = input;
  const ext = extensionOf(name);
  if (detected !== undefined) {
    const detectedMime = detected.mime.toLowerCase();
    const markup = MARKUP_MIMES.has(detectedMime);
    // XML-based markup is XML to `file-type`; its name says which (an .svg is SVG).
    const mime = markup ? (MARKUP_FORMATS[ext] ?? detectedMime) : detectedMime;
    const canonical = EXTENSION_ALIASES[detected.ext] ?? detected.ext;
    if (markup && input.accept === undefined) {
      return {
        ok: false,
        reason: `${describe(name)} is markup (${mime}), which is not accepted`,
      };
    }
    if (input.accept !== undefined && !accepts(input.accept, mime, canonical)) {
      return {
        ok: false,
        reason: `${describe(name)} is ${mime}, which this field does not accept`,
      };
    }
    if (ext !== canonical && !(markup && MARKUP_FORMATS[ext] !== undefined)) {
      return {
        ok: false,
        reason: `${describe(name)} holds ${mime} but is named .${ext || '(none)'}: the extension must agree with the content`,
      };
    }
    return { ok: true, type: mime, text: false };
  }
  const textMime = TEXT_FORMATS[ext];
  const markupMime = MARKUP_FORMATS[ext];
  if (markupMime !== undefined) {
    // Markup without a magic number (HTML has none): only by its exact MIME type.
    if (
      input.accept?.map(normalizeAccept).includes(markupMime) === true &&
      looksLikeText(head)
    ) {
      return { ok: true, type: markupMime, text: false };
    }
    return {
      ok: false,
      reason: `${describe(name)} is markup (${markupMime}), which is not accepted`,
    };
  }
  if (textMime === undefined || !looksLikeText(head)) {
    return {
      ok: false,
      reason: `the type of ${describe(name)} is not recognised from its content`,
    };
  }
  if (input.accept !== undefined && !accepts(input.accept, textMime, ext)) {
    return {
      ok: false,
      reason: `${describe(name)} is ${textMime}, which this field does not accept`,
    };
  }
  if (MARKUP.test(new TextDecoder().decode(head))) {
    return {
      ok: false,
      reason: `${describe(name)} holds markup, which is not accepted in a text file`,
    };
  }
  return { ok: true, type: textMime, text: true };
}

/** The file name as messages quote it (short, JSON-escaped). */
function describe(name: string): string {
  const shown = name.length > 64 ? `${name.slice(0, 64)}…` : name;
  return `"${JSON.stringify(shown).slice(1, -1)}"`;
}

/** The format the first bytes show, if any. */
export async function detectFormat(
  head: Uint8Array,
): Promise<DetectedFormat | undefined> {
  if (head.length === 0) return undefined;
  const { fileTypeFromBuffer } = await import('file-type');
  const found = await fileTypeFromBuffer(head);
  return found === undefined ? undefined : { ext: found.ext, mime: found.mime };
}

/**
 * Finds MARKUP across the chunks of a text file, a tag split between two chunks included:
 * each chunk is checked with the end of the one before.
 */
export class MarkupScanner {
  private tail = '';
  private readonly decoder = new TextDecoder();

  /** true once markup has been seen. */
  found = false;

  push(chunk: Uint8Array): boolean {
    if (this.found) return true;
    const text = this.tail + this.decoder.decode(chunk, { stream: true });
    this.found = MARKUP.test(text);
    this.tail = text.slice(-16);
    return this.found;
  }
}

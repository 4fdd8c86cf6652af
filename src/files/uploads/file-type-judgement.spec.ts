import { describe, expect, it } from 'vitest';
import {
  detectFormat,
  extensionOf,
  judgeFileType,
  MarkupScanner,
} from './file-type-judgement.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d494844520000000100000001080200000090770053de',
  'hex',
);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<< >>\nendobj\n');
const HTML = Buffer.from(
  '<!DOCTYPE html><html><script>alert(1)</script></html>',
);
const SVG = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
);
const CSV = Buffer.from('name,email\nAda,ada@example.com\n');

async function judge(head: Buffer, name: string, accept?: string[]) {
  return judgeFileType({
    head,
    detected: await detectFormat(head),
    name,
    accept,
  });
}

describe('judgeFileType', () => {
  it('accepts a known format its extension agrees with and `accept` lists', async () => {
    expect(await judge(PNG, 'photo.png', ['image/*', '.pdf'])).toEqual({
      ok: true,
      type: 'image/png',
      text: false,
    });
    expect(await judge(PDF, 'cv.PDF', ['image/*', '.pdf'])).toEqual({
      ok: true,
      type: 'application/pdf',
      text: false,
    });
    expect(await judge(PDF, 'cv.pdf', ['application/pdf'])).toMatchObject({
      ok: true,
    });
    expect(await judge(PNG, 'photo.png', undefined)).toMatchObject({
      ok: true,
      type: 'image/png',
    });
  });

  it('refuses a known format that `accept` does not list', async () => {
    expect(await judge(PDF, 'cv.pdf', ['image/*'])).toEqual({
      ok: false,
      reason: '"cv.pdf" is application/pdf, which this field does not accept',
    });
  });

  it('refuses bytes whose extension disagrees with them, whatever the client claims', async () => {
    expect(await judge(PNG, 'invoice.pdf', ['image/*', '.pdf'])).toMatchObject({
      ok: false,
      reason: expect.stringContaining('the extension must agree') as string,
    });
    expect(await judge(PNG, 'noextension', undefined)).toMatchObject({
      ok: false,
    });
  });

  it('refuses HTML bytes named .png, or named anything but an accepted markup type', async () => {
    expect(await judge(HTML, 'cat.png', ['image/*'])).toEqual({
      ok: false,
      reason: 'the type of "cat.png" is not recognised from its content',
    });
    expect(await judge(HTML, 'page.html', undefined)).toMatchObject({
      ok: false,
    });
    expect(await judge(HTML, 'page.html', ['text/*', '.html'])).toMatchObject({
      ok: false,
    });
    expect(await judge(HTML, 'page.html', ['text/html'])).toEqual({
      ok: true,
      type: 'text/html',
      text: false,
    });
  });

  it('accepts SVG and XML only when their MIME type is listed explicitly', async () => {
    expect(await judge(SVG, 'logo.svg', ['image/*'])).toMatchObject({
      ok: false,
    });
    expect(await judge(SVG, 'logo.svg', ['.svg'])).toMatchObject({ ok: false });
    expect(await judge(SVG, 'logo.svg', undefined)).toMatchObject({
      ok: false,
    });
    expect(await judge(SVG, 'logo.svg', ['image/svg+xml'])).toEqual({
      ok: true,
      type: 'image/svg+xml',
      text: false,
    });
  });

  it('accepts text without a magic number only as a text format its extension names', async () => {
    expect(await judge(CSV, 'list.csv', ['.csv'])).toEqual({
      ok: true,
      type: 'text/csv',
      text: true,
    });
    expect(await judge(CSV, 'list.csv', ['text/*'])).toMatchObject({
      ok: true,
    });
    expect(await judge(CSV, 'list.csv', undefined)).toMatchObject({ ok: true });
    expect(await judge(CSV, 'list.csv', ['.txt'])).toMatchObject({ ok: false });
    expect(await judge(CSV, 'list.exe', undefined)).toMatchObject({
      ok: false,
    });
    expect(
      await judge(Buffer.from([1, 0, 2, 3]), 'data.txt', undefined),
    ).toMatchObject({ ok: false });
  });

  it('refuses a text file that holds markup', async () => {
    const csv = Buffer.from('name\n"<script>alert(1)</script>"\n');
    expect(await judge(csv, 'list.csv', ['.csv'])).toEqual({
      ok: false,
      reason: '"list.csv" holds markup, which is not accepted in a text file',
    });
    expect(
      await judge(Buffer.from('a < b and c > d'), 'note.txt', undefined),
    ).toMatchObject({ ok: true });
  });

  it('quotes a hostile file name safely in its messages', async () => {
    const judged = await judge(
      HTML,
      `"quoted"\n${'x'.repeat(100)}.png`,
      undefined,
    );
    expect(judged.ok).toBe(false);
    expect(!judged.ok && judged.reason).toContain('\\"quoted\\"\\n');
    expect(!judged.ok && judged.reason).not.toContain('\n');
  });
});

describe('extensionOf', () => {
  it('reads the last extension, lower-case, with the usual aliases', () => {
    expect(extensionOf('a.tar.GZ')).toBe('gz');
    expect(extensionOf('photo.JPEG')).toBe('jpg');
    expect(extensionOf('.bashrc')).toBe('');
    expect(extensionOf('dir.d/name')).toBe('');
    expect(extensionOf('..\\evil.png')).toBe('png');
    expect(extensionOf('trailing.')).toBe('');
  });
});

describe('MarkupScanner', () => {
  it('finds a tag split between two chunks', () => {
    const scanner = new MarkupScanner();
    expect(scanner.push(Buffer.from('harmless text <scr'))).toBe(false);
    expect(scanner.push(Buffer.from('ipt>alert(1)'))).toBe(true);
  });

  it('lets comparisons and plain text through', () => {
    const scanner = new MarkupScanner();
    expect(scanner.push(Buffer.from('1 < 2, 3 > 2, a <b'))).toBe(false);
    expect(scanner.push(Buffer.from('c d'))).toBe(false);
  });
});

import { attachmentDisposition, safeFileName } from './content-disposition.js';

describe('attachmentDisposition', () => {
  it('offers a plain name as it is', () => {
    expect(attachmentDisposition('cv.pdf')).toBe(
      `attachment; filename="cv.pdf"; filename*=UTF-8''cv.pdf`,
    );
  });

  it('escapes quotes and keeps the real name in filename*', () => {
    expect(attachmentDisposition('say "hi"; rm -rf.txt')).toBe(
      `attachment; filename="say _hi__ rm -rf.txt"; filename*=UTF-8''say%20%22hi%22%3B%20rm%20-rf.txt`,
    );
  });

  it('never offers a path, and drops control and direction marks', () => {
    expect(safeFileName('../../etc/passwd')).toBe('.._.._etc_passwd');
    expect(safeFileName('C:\\fake\\x.png')).toBe('C:_fake_x.png');
    expect(safeFileName('invoice\u202Egpj.exe')).toBe('invoicegpj.exe');
    expect(safeFileName('a\r\nSet-Cookie: x=1')).toBe('aSet-Cookie: x=1');
    expect(safeFileName('\u200f')).toBe('file');
    const header = attachmentDisposition('résumé \u202Efdp.exe');
    expect(header).toBe(
      `attachment; filename="r_sum_ fdp.exe"; filename*=UTF-8''r%C3%A9sum%C3%A9%20fdp.exe`,
    );
    expect(header).not.toMatch(/[\r\n\u202e]/);
  });

  it('keeps a 300-character name to 255 characters with its extension', () => {
    const name = `${'ж'.repeat(296)}.pdf`;
    const safe = safeFileName(name);
    expect(Array.from(safe)).toHaveLength(255);
    expect(safe.endsWith('ж.pdf')).toBe(true);
    const header = attachmentDisposition(name);
    expect(decodeURIComponent(header.split("UTF-8''")[1])).toBe(safe);
    expect(header).toMatch(/^[\x20-\x7e]+$/);
  });
});

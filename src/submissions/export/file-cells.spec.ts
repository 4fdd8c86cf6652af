import { fileCell } from './file-cells.js';

const cv = {
  id: 'f1',
  name: 'cv.pdf',
  size: 3,
  type: 'application/pdf',
  sha256: 'ab',
};
const photo = { ...cv, id: 'f2', name: 'me.png' };

describe('CSV file cells', () => {
  it('writes each file as its name and link, one a line', () => {
    const links = new Map([
      ['f1', 'https://forms.example.com/files/f1.x.y'],
      ['f2', 'https://forms.example.com/files/f2.x.y'],
    ]);
    expect(fileCell(cv, links)).toBe(
      'cv.pdf (https://forms.example.com/files/f1.x.y)',
    );
    expect(fileCell([cv, photo], links)).toBe(
      'cv.pdf (https://forms.example.com/files/f1.x.y)\nme.png (https://forms.example.com/files/f2.x.y)',
    );
  });

  it('names a file without a stored link by its name alone', () => {
    expect(fileCell(cv, undefined)).toBe('cv.pdf');
    expect(fileCell([cv], new Map())).toBe('cv.pdf');
  });

  it('leaves every other value as it is', () => {
    expect(fileCell('Ada', undefined)).toBe('Ada');
    expect(fileCell(42, undefined)).toBe(42);
    expect(fileCell([], undefined)).toEqual([]);
    expect(fileCell({ id: 'f1', name: 'x' }, undefined)).toEqual({
      id: 'f1',
      name: 'x',
    });
  });
});

import { cell, own } from './view-helpers.js';

describe('view helpers', () => {
  it('reads own values only', () => {
    const data = JSON.parse('{"name":"Ada","toString":"hi"}') as object;
    expect(own(data, 'name')).toBe('Ada');
    expect(own(data, 'toString')).toBe('hi');
    expect(own(data, 'constructor')).toBeUndefined();
    expect(cell(own(data, 'valueOf'))).toBe('');
    expect(own(null, 'name')).toBeUndefined();
  });

  it('writes a file value as its name, never as JSON', () => {
    const cv = { id: 'f1', name: 'cv.pdf', size: 10, type: 'x', sha256: 'ab' };
    const photo = { ...cv, id: 'f2', name: 'me.png' };
    expect(cell(cv)).toBe('cv.pdf');
    expect(cell([cv, photo])).toBe('cv.pdf, me.png');
    expect(cell({ id: 'f1', name: 'not a file' })).toBe(
      '{"id":"f1","name":"not a file"}',
    );
  });
});

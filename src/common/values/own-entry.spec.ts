import { ownEntry } from './own-entry.js';

describe('ownEntry', () => {
  const table = { saved: 'Changes saved.' };

  it('finds the table’s own entries', () => {
    expect(ownEntry(table, 'saved')).toBe('Changes saved.');
  });

  it('never finds a built-in of Object.prototype', () => {
    for (const name of [
      'constructor',
      'toString',
      '__proto__',
      'hasOwnProperty',
      'valueOf',
    ]) {
      expect(ownEntry(table, name)).toBeUndefined();
    }
  });

  it('answers undefined for a name that is not a string (a repeated query parameter)', () => {
    expect(ownEntry(table, ['saved', 'saved'])).toBeUndefined();
    expect(ownEntry(table, undefined)).toBeUndefined();
  });
});

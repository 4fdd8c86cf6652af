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
});

import { MAX_YIELD_MS, passNow } from './search-indexer.js';

describe('the search indexer in a burst of submissions', () => {
  it('indexes at each scheduled pass while no burst lasts', () => {
    expect(passNow(false, 0)).toBe(true);
    expect(passNow(false, MAX_YIELD_MS * 3)).toBe(true);
  });

  it('waits while a burst lasts, for at most MAX_YIELD_MS since its last pass', () => {
    expect(passNow(true, 0)).toBe(false);
    expect(passNow(true, MAX_YIELD_MS - 1)).toBe(false);
    expect(passNow(true, MAX_YIELD_MS)).toBe(true);
  });
});

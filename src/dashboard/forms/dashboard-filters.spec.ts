import {
  describeRange,
  filterQuery,
  queryText,
  readFilters,
} from './dashboard-filters.js';

describe('readFilters', () => {
  it('reads whole days with both ends included: To becomes the next midnight', () => {
    const filters = readFilters({
      q: '  Lovelace ',
      from: '2026-05-01',
      to: '2026-05-31',
    });
    expect(filters.values).toEqual({
      q: 'Lovelace',
      from: '2026-05-01',
      to: '2026-05-31',
    });
    expect(filters.input).toEqual({
      q: 'Lovelace',
      from: '2026-05-01T00:00:00.000Z',
      to: '2026-06-01T00:00:00.000Z',
    });
    expect(filters.errors.any).toBe(false);
    expect(filters.active).toBe(true);
  });

  it('keeps an exact instant as it is', () => {
    expect(readFilters({ to: '2026-05-31T12:30:00Z' }).input).toEqual({
      to: '2026-05-31T12:30:00.000Z',
    });
  });

  it('accepts one day as a range of its own', () => {
    expect(readFilters({ from: '2026-05-01', to: '2026-05-01' }).input).toEqual(
      {
        from: '2026-05-01T00:00:00.000Z',
        to: '2026-05-02T00:00:00.000Z',
      },
    );
  });

  it('explains impossible dates and a reversed range beside the inputs', () => {
    const bad = readFilters({ from: '2026-02-30', to: 'next week' });
    expect(bad.errors.fields).toEqual({
      from: 'From must be a date such as 2026-05-01',
      to: 'To must be a date such as 2026-05-31',
    });
    expect(bad.input).toEqual({});
    const reversed = readFilters({ from: '2026-05-02', to: '2026-05-01' });
    expect(reversed.errors.summary).toEqual([
      { text: 'From must be on or before To', href: '#from' },
    ]);
  });

  it('refuses an over-long search', () => {
    const filters = readFilters({ q: 'x'.repeat(201) });
    expect(filters.errors.fields.q).toMatch(/at most 200/);
    expect(filters.input.q).toBeUndefined();
  });

  it('is inactive without filters, and takes the first of repeated parameters', () => {
    expect(readFilters({}).active).toBe(false);
    expect(queryText(['a', 'b'])).toBe('a');
    expect(queryText({ nested: 'x' })).toBe('');
    expect(readFilters({ q: ['first', 'second'] }).values.q).toBe('first');
  });
});

describe('filterQuery', () => {
  it('puts the given parameters first and skips empty ones', () => {
    expect(
      filterQuery({ q: 'a b', from: '', to: '2026-05-31' }, { cursor: 'xyz' }),
    ).toBe('?cursor=xyz&q=a+b&to=2026-05-31');
    expect(filterQuery({})).toBe('');
  });
});

describe('describeRange', () => {
  it('says the range in words', () => {
    expect(describeRange({ from: '2026-05-01', to: '2026-05-31' })).toBe(
      'from 1 May 2026 to 31 May 2026',
    );
    expect(describeRange({ from: '2026-05-01', to: '' })).toBe(
      'since 1 May 2026',
    );
    expect(describeRange({ from: '', to: '2026-05-31T12:30:00Z' })).toBe(
      'until 31 May 2026, 12:30 UTC',
    );
    expect(describeRange({ from: '', to: '' })).toBe('');
  });
});

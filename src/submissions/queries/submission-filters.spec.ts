import { BadRequestException } from '@nestjs/common';
import { parseFilters, parseInstant } from './submission-filters.js';

describe('parseInstant', () => {
  it.each([
    ['2025-05-01', '2025-05-01T00:00:00.000Z'],
    ['2025-05-01T12:30', '2025-05-01T12:30:00.000Z'],
    ['2025-05-01T12:30:15', '2025-05-01T12:30:15.000Z'],
    ['2025-05-01T12:30:15.1234Z', '2025-05-01T12:30:15.123Z'],
    ['2025-05-01 12:30:15Z', '2025-05-01T12:30:15.000Z'],
    ['2025-05-01T12:30:15+02:00', '2025-05-01T10:30:15.000Z'],
    ['2025-05-01T12:30:15-0130', '2025-05-01T14:00:15.000Z'],
    ['2025-05-01T12:30:15 02:00', '2025-05-01T10:30:15.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
    ['0999-01-01', '0999-01-01T00:00:00.000Z'],
  ])('reads %s as %s (UTC unless a zone is given)', (text, iso) => {
    expect(parseInstant(text)?.toISOString()).toBe(iso);
  });

  it.each([
    'yesterday',
    '2025',
    '2025-05',
    '2025-W18',
    '2025-123',
    '2025-02-29',
    '2025-04-31',
    '2025-13-01',
    '2025-05-01T24:00',
    '2025-05-01T12:60',
    '2025-05-01T12:00:00+24:00',
    '1714567890',
    '',
  ])('refuses %j', (text) => {
    expect(parseInstant(text)).toBeUndefined();
  });
});

describe('parseFilters', () => {
  it('clamps bounds to what a DATETIME column can hold', () => {
    const filters = parseFilters({ from: '0999-01-01' });
    expect(filters.from?.toISOString()).toBe('1000-01-01T00:00:00.000Z');
  });

  it('lower-cases and trims q, dropping it when blank', () => {
    expect(parseFilters({ q: '  Ada LOVELACE ' }).q).toBe('ada lovelace');
    expect(parseFilters({ q: '   ' }).q).toBeUndefined();
  });

  it('refuses from after to, and unreadable dates', () => {
    expect(() =>
      parseFilters({ from: '2025-06-01', to: '2025-05-01' }),
    ).toThrow(BadRequestException);
    expect(() => parseFilters({ to: 'soon' })).toThrow(
      'to must be an ISO 8601 date or date-time',
    );
  });
});

import { quoteIdentifier } from './sql-identifier.js';

describe('quoteIdentifier', () => {
  it('quotes for SQLite with double quotes, doubling any inside', () => {
    expect(quoteIdentifier('sqlite', 'createdAt')).toBe('"createdAt"');
    expect(quoteIdentifier('sqlite', 'a"b')).toBe('"a""b"');
  });

  it('quotes for MySQL and MariaDB with backticks, doubling any inside', () => {
    expect(quoteIdentifier('mysql', 'createdAt')).toBe('`createdAt`');
    expect(quoteIdentifier('mysql', 'a`b')).toBe('`a``b`');
  });
});

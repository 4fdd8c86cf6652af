import { SqlFile } from '../../../test/support/sql-file.js';
import { SearchIndexSql } from './search-index-sql.js';
import { matchQuery, searchText, searchWords } from './search-text.js';

describe('what the full-text index holds and answers', () => {
  it('indexes values and file names, never field names', () => {
    expect(
      searchText(
        JSON.stringify({
          name: 'Ada',
          age: 36,
          ok: true,
          none: null,
          cv: { id: 'f1', name: 'cv.pdf', size: 1, type: 'x', sha256: 'y' },
          more: [{ id: 'f2', name: 'b.png', size: 1, type: 'x', sha256: 'y' }],
        }),
      ),
    ).toBe('Ada\n36\ntrue\ncv.pdf\nb.png');
  });

  it('answers words of three or more letters or digits, not stopwords or underscores', () => {
    expect(searchWords('Zanzibar offer')).toEqual(['zanzibar', 'offer']);
    expect(searchWords('Ärger')).toEqual(['ärger']);
    expect(searchWords('example.net')).toEqual(['example', 'net']);
    expect(searchWords('42')).toBeUndefined();
    expect(searchWords('example.com')).toBeUndefined();
    expect(searchWords('file_1')).toBeUndefined();
    expect(searchWords('%')).toBeUndefined();
  });

  it('writes a prefix query of every word per dialect', () => {
    expect(matchQuery(['zanzi', 'off'], 'sqlite')).toBe('"zanzi"* "off"*');
    expect(matchQuery(['zanzi', 'off'], 'mysql')).toBe('+zanzi* +off*');
  });
});

describe.each(['mysql', 'sqlite'] as const)(
  'search index SQL on %s',
  (dialect) => {
    const sql = new SearchIndexSql(dialect);
    const file = new SqlFile('SearchIndexSql');

    file.section(
      'reads and saves the indexer position, and the next rows by id',
      () => {
        file.add('state', sql.state());
        file.add('saveState', sql.saveState('01J'));
        file.add('pending', sql.pending('01J', '2026-12-01 10:00:00.000', 200));
      },
    );

    file.section('finds candidates of a form and empties the index', () => {
      file.add('candidates', sql.candidates('f', 'q', 5001));
      file.add('clear', sql.clear());
      if (dialect === 'sqlite') {
        file.add('candidatePage', sql.candidatePage('f', 'q', 42, 1000));
        file.add('sqliteKey', sql.sqliteKey());
        file.add('sqliteExists', sql.sqliteExists());
        file.add('sqliteText', sql.sqliteText());
      } else {
        file.add('mysqlText', sql.mysqlText(2));
      }
    });

    it('builds every statement as __sql__/submission_search.<dialect>.sql holds it', async () => {
      await expect(file.text()).toMatchFileSnapshot(
        `./__sql__/submission_search.${dialect}.sql`,
      );
    });
  },
);

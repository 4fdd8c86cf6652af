import { csvCell, csvRow, csvValue } from './csv.js';

describe('CSV cells', () => {
  it('leaves plain text unquoted', () => {
    expect(csvCell('Ada Lovelace')).toBe('Ada Lovelace');
  });

  it.each([
    ['a comma', 'a,b', '"a,b"'],
    ['a quote', 'say "hi"', '"say ""hi"""'],
    ['a line feed', 'line 1\nline 2', '"line 1\nline 2"'],
    ['a CRLF', 'line 1\r\nline 2', '"line 1\r\nline 2"'],
    ['only a quote', '"', '""""'],
  ])(
    'quotes a cell holding %s and doubles its quotes',
    (_name, input, expected) => {
      expect(csvCell(input)).toBe(expected);
    },
  );

  it.each(['=SUM(A1:A9)', '+1+2', '-2+3', '@cmd', '\tx', '\rx'])(
    'neutralises a formula trigger at the start of %j',
    (input) => {
      expect(csvValue(input)).toBe(`'${input}`);
    },
  );

  it.each([
    '\n=1+1',
    '  =1+1',
    '\u00a0+cmd',
    '\r\n-2',
    ' \t@SUM(A1)',
    '＝1+1',
    '＋1',
    '－1',
    '＠cmd',
    '\u3000＝1',
  ])(
    'neutralises %j, a formula after white space or in full-width form',
    (input) => {
      expect(csvValue(input)).toBe(`'${input}`);
    },
  );

  it('neutralises and then quotes a formula that also holds a comma', () => {
    expect(csvCell('=HYPERLINK("http://x",1)')).toBe(
      `"'=HYPERLINK(""http://x"",1)"`,
    );
    expect(csvCell('\rboom')).toBe(`"'\rboom"`);
  });

  it('leaves triggers alone when they are not the first character', () => {
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell('user@example.com')).toBe('user@example.com');
    expect(csvCell(' hello = world')).toBe(' hello = world');
    expect(csvCell('   ')).toBe('   ');
  });

  it('writes numbers and booleans as they are, negative numbers included', () => {
    expect(csvCell(42)).toBe('42');
    expect(csvCell(-5.5)).toBe('-5.5');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(false)).toBe('false');
  });

  it('writes missing and null values as empty cells', () => {
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(null)).toBe('');
    expect(csvCell('')).toBe('');
  });

  it('writes a nested value as JSON, quoted', () => {
    expect(csvCell({ a: 1, b: 2 })).toBe('"{""a"":1,""b"":2}"');
  });
});

describe('CSV rows', () => {
  it('joins cells with commas and ends with CRLF', () => {
    expect(csvRow(['id', 'a,b', null, '=1'])).toBe(`id,"a,b",,'=1\r\n`);
  });
});

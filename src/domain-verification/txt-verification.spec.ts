import {
  joinTxtRecord,
  judge,
  txtNames,
  txtValue,
  type LookupOutcome,
} from './txt-verification.js';

const TOKEN = 'a'.repeat(40);
const VALUE = `formgate-verification=${TOKEN}`;

describe('txtNames / txtValue', () => {
  it('checks the domain itself, then _formgate.<domain>', () => {
    expect(txtNames('example.com')).toEqual([
      'example.com',
      '_formgate.example.com',
    ]);
    expect(txtValue(TOKEN)).toBe(VALUE);
  });
});

describe('joinTxtRecord', () => {
  it.each([
    [['formgate-', 'verification=', 'abc'], 'formgate-verification=abc'],
    [['  formgate-verification=abc  '], 'formgate-verification=abc'],
    [['"formgate-verification=abc"'], 'formgate-verification=abc'],
    [['"formgate-verification=', 'abc"'], 'formgate-verification=abc'],
    [[''], ''],
    [['"'], '"'],
  ])('joins %j into %j', (chunks, expected) => {
    expect(joinTxtRecord(chunks)).toBe(expected);
  });
});

describe('judge', () => {
  const records = (name: string, values: string[]): LookupOutcome => ({
    name,
    kind: 'records',
    records: values,
  });
  const error = (name: string, code: string): LookupOutcome => ({
    name,
    kind: 'error',
    code,
  });

  it('verifies when any record on either name equals the value', () => {
    expect(
      judge(
        [
          records('example.com', ['v=spf1 -all', VALUE]),
          error('_formgate.example.com', 'ENOTFOUND'),
        ],
        TOKEN,
      ),
    ).toEqual({ verified: true, name: 'example.com' });
    expect(
      judge(
        [
          error('example.com', 'ETIMEOUT'),
          records('_formgate.example.com', [VALUE]),
        ],
        TOKEN,
      ),
    ).toEqual({ verified: true, name: '_formgate.example.com' });
  });

  it('does not verify another token, a prefix or a longer value', () => {
    for (const value of [
      `formgate-verification=${'b'.repeat(40)}`,
      `formgate-verification=${TOKEN.slice(1)}`,
      `${VALUE}x`,
      `x${VALUE}`,
      VALUE.toUpperCase(),
    ]) {
      expect(
        judge(
          [
            records('example.com', [value]),
            error('_formgate.example.com', 'ENOTFOUND'),
          ],
          TOKEN,
        ),
      ).toMatchObject({ verified: false });
    }
  });

  it('explains a missing record', () => {
    expect(
      judge(
        [
          records('example.com', ['v=spf1 -all']),
          error('_formgate.example.com', 'ENODATA'),
        ],
        TOKEN,
      ),
    ).toEqual({
      verified: false,
      error: `No TXT record ${VALUE} found on example.com or _formgate.example.com. DNS changes can take a while to appear: verify again later.`,
    });
  });

  it('says when the domain does not exist', () => {
    expect(
      judge(
        [
          error('example.com', 'ENOTFOUND'),
          error('_formgate.example.com', 'ENOTFOUND'),
        ],
        TOKEN,
      ),
    ).toMatchObject({
      error: expect.stringContaining(
        '(example.com does not exist in DNS)',
      ) as string,
    });
  });

  it.each([
    ['ETIMEOUT', 'DNS lookup timed out'],
    ['ECANCELLED', 'DNS lookup timed out'],
    ['ESERVFAIL', 'The DNS server failed to answer (SERVFAIL)'],
    ['EREFUSED', 'The DNS server refused the query (REFUSED)'],
    [
      'ECONNREFUSED',
      'The DNS server could not be reached (connection refused)',
    ],
    ['EBADRESP', 'DNS lookup failed (EBADRESP)'],
  ])('reports %s on both names in one sentence', (code, text) => {
    expect(
      judge(
        [error('example.com', code), error('_formgate.example.com', code)],
        TOKEN,
      ),
    ).toEqual({
      verified: false,
      error: `${text} for example.com and _formgate.example.com. Check that the record is published, then verify again in a few minutes.`,
    });
  });

  it('reports a failure on one name even when the other answered', () => {
    expect(
      judge(
        [
          records('example.com', []),
          error('_formgate.example.com', 'ETIMEOUT'),
        ],
        TOKEN,
      ),
    ).toEqual({
      verified: false,
      error:
        'DNS lookup timed out for _formgate.example.com. Check that the record is published, then verify again in a few minutes.',
    });
  });
});

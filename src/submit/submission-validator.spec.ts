import type { FieldDefinition } from '../forms/form.entity.js';
import {
  compileSubmissionValidator,
  type ValidationResult,
} from './submission-validator.js';

const CONTACT: FieldDefinition[] = [
  { id: 'name', type: 'text', required: true },
  { id: 'email', type: 'email', required: true },
  { id: 'message', type: 'textarea' },
];

function errorsOf(result: ValidationResult): string[] {
  return result.ok ? [] : result.errors;
}

function single(field: FieldDefinition) {
  const validate = compileSubmissionValidator([field]);
  return (value: unknown) => validate({ [field.id]: value });
}

describe('compileSubmissionValidator', () => {
  const contact = compileSubmissionValidator(CONTACT);

  it('accepts a valid submission and keeps only answered fields', () => {
    expect(
      contact({ name: 'Ada', email: 'ada@example.com', message: '  ' }),
    ).toEqual({ ok: true, data: { name: 'Ada', email: 'ada@example.com' } });
  });

  it('reports one error per failure, each naming its field', () => {
    expect(errorsOf(contact({ email: 'nope' }))).toEqual([
      'name is required',
      'email must be a valid email address',
    ]);
  });

  it('treats blank and null values of required fields as missing', () => {
    expect(errorsOf(contact({ name: '   ', email: null }))).toEqual([
      'name is required',
      'email is required',
    ]);
  });

  it('refuses unknown keys, matching ids case-sensitively', () => {
    expect(
      errorsOf(contact({ name: 'Ada', Email: 'ada@example.com', phone: '1' })),
    ).toEqual([
      'email is required',
      '"Email" is not a field of this form (field ids are case-sensitive: did you mean "email"?)',
      '"phone" is not a field of this form',
    ]);
  });

  it('refuses lists (repeated form keys) and objects', () => {
    expect(errorsOf(contact({ name: ['a', 'b'], email: { x: 1 } }))).toEqual([
      'name must be a single value, not a list (was the key sent more than once?)',
      'email must be a single value, not an object',
    ]);
  });

  it('ignores and never stores control keys', () => {
    expect(
      contact({
        name: 'Ada',
        email: 'ada@example.com',
        _honeypot: '',
        _next: '/thanks',
        __proto__: 'x',
      }),
    ).toEqual({ ok: true, data: { name: 'Ada', email: 'ada@example.com' } });
  });

  it('refuses keys with control characters, naming each escaped, on every form', () => {
    const free = compileSubmissionValidator([]);
    expect(
      errorsOf(
        free({
          'note\nView it in the dashboard: https://evil.example': 'x',
          'tab\there': 'y',
          fine: 'z',
        }),
      ),
    ).toEqual([
      'field name "note\\nView it in the dashboard: https://evil.example" contains a control character (a line break, a tab…); field names must be plain text',
      'field name "tab\\there" contains a control character (a line break, a tab…); field names must be plain text',
    ]);
    for (const key of [
      'a\rb',
      'a\u2028b',
      'a\u0085b',
      'a\u007fb',
      '_sub\nject',
    ]) {
      const errors = errorsOf(free({ [key]: 'x', ok: 'y' }));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(
        /^field name "a?.*" contains a control character/,
      );
      expect(errors[0]).not.toMatch(/[\p{Cc}\u2028\u2029]/u);
    }
    expect(
      errorsOf(contact({ name: 'Ada', email: 'ada@example.com', 'x\n': '1' })),
    ).toEqual([
      'field name "x\\n" contains a control character (a line break, a tab…); field names must be plain text',
    ]);
  });

  it('refuses a body that is not a flat object', () => {
    for (const body of [[1, 2], 'text', 42, true]) {
      expect(errorsOf(contact(body))).toEqual([
        'the body must be a set of field names and values (a JSON object or a form post)',
      ]);
    }
  });

  it('refuses an empty submission', () => {
    const optional = compileSubmissionValidator([
      { id: 'message', type: 'textarea' },
    ]);
    expect(errorsOf(optional({ message: '' }))).toEqual([
      'the submission is empty: fill in at least one field',
    ]);
    expect(errorsOf(optional(undefined))).toEqual([
      'the submission is empty: fill in at least one field',
    ]);
  });

  it('never lets __proto__ or constructor keys reach a prototype', () => {
    const body = Object.create(null) as Record<string, unknown>;
    body['constructor'] = 'x';
    const result = compileSubmissionValidator([])(body);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.hasOwn(result.data, 'constructor')).toBe(true);
    expect(Object.getPrototypeOf(result.data)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  describe('maxLength', () => {
    it('defaults to 5000 characters', () => {
      const check = single({ id: 'bio', type: 'text' });
      expect(check('x'.repeat(5000)).ok).toBe(true);
      expect(errorsOf(check('x'.repeat(5001)))).toEqual([
        'bio must be at most 5000 characters long',
      ]);
    });

    it("uses the field's own limit, counting characters not UTF-16 units", () => {
      const check = single({ id: 'nick', type: 'text', maxLength: 3 });
      expect(check('😀😀😀').ok).toBe(true);
      expect(errorsOf(check('abcd'))).toEqual([
        'nick must be at most 3 characters long',
      ]);
    });
  });

  describe('types', () => {
    it('email', () => {
      const check = single({ id: 'e', type: 'email' });
      expect(check(' a.b+c@mail.example.org ')).toEqual({
        ok: true,
        data: { e: 'a.b+c@mail.example.org' },
      });
      for (const bad of ['a@b', 'a@', '@b.com', 'a b@c.com', 'a@b..com', 42]) {
        expect(errorsOf(check(bad))).toEqual([
          'e must be a valid email address',
        ]);
      }
    });

    it('number: numeric strings and JSON numbers are stored as numbers', () => {
      const check = single({ id: 'n', type: 'number' });
      expect(check('42')).toEqual({ ok: true, data: { n: 42 } });
      expect(check(' -1.5e3 ')).toEqual({ ok: true, data: { n: -1500 } });
      expect(check(7)).toEqual({ ok: true, data: { n: 7 } });
      for (const bad of ['12abc', '0x10', '1e999', 'NaN', true, '1,5']) {
        expect(errorsOf(check(bad))).toEqual(['n must be a number']);
      }
    });

    it('url: http and https only', () => {
      const check = single({ id: 'u', type: 'url' });
      expect(check('https://example.com/a?b=c')).toEqual({
        ok: true,
        data: { u: 'https://example.com/a?b=c' },
      });
      for (const bad of [
        'javascript:alert(1)',
        'ftp://x.org',
        'example.com',
        'http://',
      ]) {
        expect(errorsOf(check(bad))).toEqual([
          'u must be a URL starting with http:// or https://',
        ]);
      }
    });

    it('tel: plausible phone characters', () => {
      const check = single({ id: 't', type: 'tel' });
      for (const good of [
        '+49 (30) 123-456',
        '555.123.4567',
        '030/1234 ext. 12',
      ]) {
        expect(check(good).ok).toBe(true);
      }
      for (const bad of ['call me', '12', '+1 555 <script>', '1'.repeat(21)]) {
        expect(errorsOf(check(bad))).toEqual(['t must be a phone number']);
      }
    });

    it('date: a real calendar date written YYYY-MM-DD', () => {
      const check = single({ id: 'd', type: 'date' });
      expect(check('2024-02-29')).toEqual({
        ok: true,
        data: { d: '2024-02-29' },
      });
      expect(check('0050-01-01').ok).toBe(true);
      for (const bad of [
        '2023-02-29',
        '2024-13-01',
        '2024-1-1',
        '01/02/2024',
        '0000-01-01',
      ]) {
        expect(errorsOf(check(bad))).toEqual([
          'd must be a date written YYYY-MM-DD',
        ]);
      }
    });

    it('select: one of the options, exactly', () => {
      const check = single({
        id: 's',
        type: 'select',
        options: ['sales', 'support'],
      });
      expect(check('sales')).toEqual({ ok: true, data: { s: 'sales' } });
      for (const bad of ['Sales', 'other', ' sales']) {
        expect(errorsOf(check(bad))).toEqual([
          's must be one of: sales, support',
        ]);
      }
    });

    it('checkbox: boolean-ish values stored as booleans', () => {
      const check = single({ id: 'c', type: 'checkbox' });
      for (const on of ['on', 'true', 'TRUE', '1', 'yes', true, 1]) {
        expect(check(on)).toEqual({ ok: true, data: { c: true } });
      }
      for (const off of ['off', 'false', '0', 'no', false, 0]) {
        expect(check(off)).toEqual({ ok: true, data: { c: false } });
      }
      expect(errorsOf(check('maybe'))).toEqual([
        'c must be checked or unchecked (on, true, false, 1 or 0)',
      ]);
    });

    it('checkbox: a required one must be checked', () => {
      const check = single({ id: 'terms', type: 'checkbox', required: true });
      expect(errorsOf(check('false'))).toEqual(['terms must be checked']);
      expect(check('on')).toEqual({ ok: true, data: { terms: true } });
    });

    it('text keeps JSON numbers and booleans as their text', () => {
      const check = single({ id: 'x', type: 'text' });
      expect(check(12)).toEqual({ ok: true, data: { x: '12' } });
      expect(check(false)).toEqual({ ok: true, data: { x: 'false' } });
    });
  });

  describe('a form without fields', () => {
    const any = compileSubmissionValidator([]);

    it('accepts any non-reserved key, keeping scalar values as sent', () => {
      expect(
        any({ 'First name': 'Ada', age: 36, ok: true, _gotcha: '' }),
      ).toEqual({
        ok: true,
        data: { 'First name': 'Ada', age: 36, ok: true },
      });
    });

    it('accepts at most 100 keys', () => {
      const keys = (n: number) =>
        Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));
      expect(any(keys(100)).ok).toBe(true);
      expect(errorsOf(any(keys(101)))).toEqual([
        'the submission has 101 fields; at most 100 are accepted',
      ]);
    });

    it('limits values to 5000 characters and refuses non-scalars', () => {
      expect(errorsOf(any({ a: 'x'.repeat(5001), b: [1], c: {} }))).toEqual([
        '"a" must be at most 5000 characters long',
        '"b" must be a single value, not a list (was the key sent more than once?)',
        '"c" must be a single value, not an object',
      ]);
    });

    it('refuses empty and over-long key names', () => {
      expect(errorsOf(any({ '': 'x', ['k'.repeat(101)]: 'y' }))).toEqual([
        'a field name must not be empty',
        `field name "${'k'.repeat(64)}…" is longer than 100 characters`,
      ]);
    });
  });
});

describe('patterns on long values', () => {
  it('refuses a phone value of spaces in linear time', () => {
    const check = compileSubmissionValidator([
      { id: 'phone', type: 'tel', maxLength: 100_000 },
    ]);
    const started = performance.now();
    expect(check({ phone: `1${' '.repeat(99_996)}!` })).toEqual({
      ok: false,
      errors: ['phone must be a phone number'],
      issues: [{ field: 'phone', code: 'TYPE_TEXT' }],
    });
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('still reads an extension after spaces', () => {
    const check = compileSubmissionValidator([{ id: 'phone', type: 'tel' }]);
    expect(check({ phone: '+1 555 123 4567 x 89' })).toEqual({
      ok: true,
      data: { phone: '+1 555 123 4567 x 89' },
    });
  });
});

describe('issues: the field and code of each message', () => {
  const issuesOf = (result: ValidationResult) =>
    result.ok ? [] : result.errors.map((e, i) => [e, result.issues[i]]);

  it('tells a missing required field from a blank one, and names the type', () => {
    const validate = compileSubmissionValidator([
      ...CONTACT,
      { id: 'age', type: 'number' },
      { id: 'site', type: 'url' },
    ]);
    expect(
      issuesOf(
        validate({
          name: '  ',
          email: 'x',
          age: 'old',
          site: 'ftp://x',
          Other: 1,
        }),
      ),
    ).toEqual([
      ['name is required', { field: 'name', code: 'REQUIRED_FIELD_EMPTY' }],
      [
        'email must be a valid email address',
        { field: 'email', code: 'TYPE_EMAIL' },
      ],
      ['age must be a number', { field: 'age', code: 'TYPE_NUMERIC' }],
      [
        'site must be a URL starting with http:// or https://',
        { field: 'site', code: 'TYPE_TEXT' },
      ],
      [
        '"Other" is not a field of this form',
        { field: 'Other', code: 'TYPE_TEXT' },
      ],
    ]);
    expect(issuesOf(validate({ email: null }))).toEqual([
      ['name is required', { field: 'name', code: 'REQUIRED_FIELD_MISSING' }],
      ['email is required', { field: 'email', code: 'REQUIRED_FIELD_EMPTY' }],
    ]);
  });

  it('marks an empty submission EMPTY and whole-body problems with no field', () => {
    const any = compileSubmissionValidator([]);
    expect(issuesOf(any({ note: '' }))).toEqual([
      [
        'the submission is empty: fill in at least one field',
        { code: 'EMPTY' },
      ],
    ]);
    expect(issuesOf(any([1, 2]))).toEqual([
      [
        'the body must be a set of field names and values (a JSON object or a form post)',
        {},
      ],
    ]);
    expect(issuesOf(any({ note: ['a', 'b'] }))[0][1]).toEqual({
      field: 'note',
      code: 'TYPE_TEXT',
    });
  });
});

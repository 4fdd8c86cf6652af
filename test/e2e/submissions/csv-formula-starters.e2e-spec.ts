// A CSV export opened in a spreadsheet runs nothing a visitor sent: a formula hidden behind
// white space, newlines or an NBSP, or written with full-width characters, is neutralised
// (a leading ') like a plain one, while ordinary text stays as it was sent.
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { parseCsv } from '../../support/csv.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const HIDDEN_FORMULAS = [
  '\n=1+1',
  '   =HYPERLINK("http://evil.example","x")',
  '\u00a0+cmd|" /C calc"!A0',
  '\r\n-2+3',
  ' \t@SUM(A1:A9)',
  '＝1+1',
  '＋1',
  '－1',
  '＠SUM(A1)',
  '\tTabbed',
  '\rCarriage',
];
const PLAIN = ['Ada Lovelace', 'a = b', ' hello', 'user@example.com'];

describe('CSV export: formula starters in any disguise (e2e)', () => {
  let t: TestApp;
  let form: TestForm;

  beforeAll(async () => {
    t = await createTestApp({ env: { SUBMIT_RATE_LIMIT: '1000' } });
    const { account } = await createAccount(t);
    form = await createForm(t, account.id, {
      fields: [{ id: 'note', type: 'textarea' }],
    });
    for (const note of [...HIDDEN_FORMULAS, ...PLAIN]) {
      const sent = await request(`${t.url}/api/submit/${form.form.id}`, {
        json: { note },
      });
      expect(sent.status).toBe(200);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('neutralises every hidden formula and leaves plain text alone', async () => {
    const res = await fetch(
      `${t.url}/api/v1/forms/${form.form.id}/submissions/export?format=csv`,
      { headers: { 'x-api-key': form.apiKey } },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const records = parseCsv(await res.text());
    expect(records[0]).toEqual([
      'id',
      'createdAt',
      'note',
      'status',
      'assignee',
      'labels',
    ]);
    const notes = records.slice(1).map((record) => record[2]);
    expect(notes.sort()).toEqual(
      [...HIDDEN_FORMULAS.map((note) => `'${note}`), ...PLAIN].sort(),
    );
    // What was stored is what was sent: only the export neutralises.
    const listed = await request(
      `${t.url}/api/v1/forms/${form.form.id}/submissions?limit=100`,
      { apiKey: form.apiKey },
    );
    expect(listed.status).toBe(200);
    const stored = (listed.body.data as Array<{ data: { note: string } }>).map(
      (submission) => submission.data.note,
    );
    expect(stored.sort()).toEqual([...HIDDEN_FORMULAS, ...PLAIN].sort());
  });
});

// Hostile file names, end to end: names with quotes, slashes and backslashes, right-to-left
// overrides and 300 characters are stored under ids of the service's own and downloaded with
// a Content-Disposition that no client can misread: a plain ASCII `filename` and the real
// name in `filename*` (RFC 6266 / 8187), without path separators, direction marks or
// control characters, cut to 255 characters with the extension kept.
import type { FieldDefinition } from '../../../src/forms/form.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { MULTIPART_TYPE, multipart, png } from '../../support/files.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const FIELDS: FieldDefinition[] = [
  { id: 'photo', type: 'file', accept: ['image/*'] },
];

/** Parses `filename*=UTF-8''…` back to the name a browser would save. */
function savedName(disposition: string): string {
  const match = /filename\*=UTF-8''([^;\s]+)/.exec(disposition);
  return decodeURIComponent(match?.[1] ?? '');
}

describe('hostile file names (e2e)', () => {
  let t: TestApp;
  let form: TestForm;

  beforeAll(async () => {
    t = await createTestApp({ env: { SUBMIT_RATE_LIMIT: '1000' } });
    const { account } = await createAccount(t);
    form = await createForm(t, account.id, { fields: FIELDS });
  });
  afterAll(async () => {
    await t?.close();
  });

  const long = `${'a'.repeat(296)}.png`;
  const cases: Array<{ sent: string; saved: string; ascii: string }> = [
    {
      // Quotes as browsers send them in a multipart file name (%22).
      sent: 'my %22best%22 photo.png',
      saved: 'my "best" photo.png',
      ascii: 'my _best_ photo.png',
    },
    {
      // A path is never kept: the name is what follows its last separator.
      sent: '../holiday/2026\\..\\beach.png',
      saved: 'beach.png',
      ascii: 'beach.png',
    },
    {
      sent: 'back\\slash%0D%0Aline.png',
      saved: 'slashline.png',
      ascii: 'slashline.png',
    },
    {
      // An RLO would show "invoice\u202Egnp.exe" as "invoiceexe.png".
      sent: 'invoice\u202Egnp.exe.png',
      saved: 'invoicegnp.exe.png',
      ascii: 'invoicegnp.exe.png',
    },
    {
      sent: 'naïve café ☕.png',
      saved: 'naïve café ☕.png',
      ascii: 'na_ve caf_ _.png',
    },
    {
      sent: long,
      saved: `${'a'.repeat(251)}.png`,
      ascii: `${'a'.repeat(251)}.png`,
    },
  ];

  it.each(cases)(
    'downloads "$sent" as a safe attachment',
    async ({ sent, saved, ascii }) => {
      const bytes = png(500);
      const posted = await request(`${t.url}/api/submit/${form.form.id}`, {
        body: multipart([
          { name: 'photo', filename: sent, bytes, type: 'image/png' },
        ]),
        headers: { 'content-type': MULTIPART_TYPE, accept: 'application/json' },
      });
      expect(posted.status).toBe(200);
      const list = await request(
        `${t.url}/api/v1/forms/${form.form.id}/submissions?limit=1`,
        { apiKey: form.apiKey },
      );
      const submission = list.body.data[0] as {
        id: string;
        data: { photo: { id: string; name: string } };
      };
      const download = await fetch(
        `${t.url}/api/v1/forms/${form.form.id}/submissions/${submission.id}/files/${submission.data.photo.id}`,
        { headers: { 'x-api-key': form.apiKey } },
      );
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe(
        'application/octet-stream',
      );
      expect(download.headers.get('x-content-type-options')).toBe('nosniff');
      const disposition = download.headers.get('content-disposition') ?? '';
      expect(disposition).toBe(
        `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(saved).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`,
      );
      // Only printable ASCII in the header, and the name saved is the safe one.
      expect(disposition).toMatch(/^[\x20-\x7e]+$/);
      expect(savedName(disposition)).toBe(saved);
      expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(
        true,
      );
    },
  );
});

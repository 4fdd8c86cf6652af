// Uploaded files in the dashboard: a submission's page links each file, the link downloads
// it as an attachment for the form's owner only, and a form's settings keep its file
// fields' size, formats and count.
import { AccountsService } from '../../../src/accounts/accounts.service.js';
import { StoredFile } from '../../../src/files/stored-file.entity.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { signedInClient, freshEmail } from '../../support/dashboard-client.js';
import { multipart, MULTIPART_TYPE, PDF } from '../../support/files.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

describe('dashboard: uploaded files (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('links each file of a submission, and downloads it for the owner only', async () => {
    const email = freshEmail('files');
    const owner = await signedInClient(t.url, '203.0.113.20', email);
    const account = (await t.app.get(AccountsService).findByEmail(email))!;
    const form: TestForm = await createForm(t, account.id, {
      fields: [
        { id: 'name', type: 'text' },
        {
          id: 'cv',
          type: 'file',
          maxSize: 5_000_000,
          accept: ['application/pdf'],
          maxFiles: 2,
        },
      ],
    });
    const posted = await request(`${t.url}/api/submit/${form.form.id}`, {
      body: multipart([
        { name: 'name', value: 'Ada' },
        { name: 'cv', filename: 'résumé <1>.pdf', bytes: PDF },
      ]),
      headers: { 'content-type': MULTIPART_TYPE },
    });
    expect(posted.status).toBe(200);
    const [file] = await t.dataSource
      .getRepository(StoredFile)
      .findBy({ formId: form.form.id });
    const page = await owner.get(
      `/dashboard/forms/${form.form.id}/submissions/${file.submissionId}`,
    );
    expect(page.status).toBe(200);
    const link = `/dashboard/forms/${form.form.id}/submissions/${file.submissionId}/files/${file.id}`;
    expect(page.html).toContain(
      `<a href="${link}" download>résumé &lt;1&gt;.pdf</a>`,
    );

    const download = await owner.get(link);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe(
      'application/octet-stream',
    );
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="r_sum_ <1>.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%3C1%3E.pdf`,
    );
    expect(download.html).toBe(PDF.toString());

    const stranger = await signedInClient(t.url, '203.0.113.21');
    expect((await stranger.get(link)).status).toBe(404);

    // The settings page keeps the file field's settings for the next save.
    const settings = await owner.get(
      `/dashboard/forms/${form.form.id}/settings`,
    );
    expect(settings.status).toBe(200);
    expect(settings.html).toContain('value="5000000"');
    expect(settings.html).toContain('value="application/pdf"');
    expect(settings.html).toContain('value="2"');
  });
});

// One submission (read, delete), bulk delete, access rules, the service the dashboard uses,
// and the OpenAPI description of the submissions routes.
import SwaggerParser from '@apidevtools/swagger-parser';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { SubmissionsService } from '../../../src/submissions/submissions.service.js';
import { expectProblem } from '../../support/answers.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { asApi, at, insertSubmissions } from '../../factories/submissions.js';
import {
  FORM_NOT_FOUND,
  INVALID_API_KEY,
  SUBMISSION_NOT_FOUND,
} from '../../support/errors.js';
import { submissionsApi } from '../../support/submissions-api.js';

describe('submissions API: reading, deleting, access (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createAccount(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const { repo, base, storedIds } = submissionsApi(() => t);

  describe('one submission', () => {
    it('reads one submission', async () => {
      const form = await createForm(t, owner.account.id);
      const [row] = await insertSubmissions(t, form.form.id, [
        {
          createdAt: at('2025-01-05T06:07:08.009Z'),
          data: { name: 'Ada', email: 'a@b.co' },
        },
      ]);
      const res = await request(`${base(form)}/${row.id}`, {
        apiKey: form.apiKey,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(asApi(row));
    });

    it('answers 404 for an unknown id and for another form’s submission', async () => {
      const form = await createForm(t, owner.account.id);
      const other = await createForm(t, owner.account.id);
      const [foreign] = await insertSubmissions(t, other.form.id, [
        { createdAt: at('2025-01-01T00:00:00Z') },
      ]);
      for (const id of ['01JZZZZZZZZZZZZZZZZZZZZZZZ', foreign.id]) {
        const res = await request(`${base(form)}/${id}`, {
          apiKey: owner.apiKey,
        });
        expectProblem(res, 404, SUBMISSION_NOT_FOUND);
      }
    });

    it('deletes one submission and keeps the others', async () => {
      const form = await createForm(t, owner.account.id);
      const rows = await insertSubmissions(t, form.form.id, [
        { createdAt: at('2025-01-01T00:00:00Z') },
        { createdAt: at('2025-01-02T00:00:00Z') },
      ]);
      const res = await request(`${base(form)}/${rows[0].id}`, {
        method: 'DELETE',
        apiKey: form.apiKey,
      });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(await storedIds(form)).toEqual([rows[1].id]);

      const again = await request(`${base(form)}/${rows[0].id}`, {
        method: 'DELETE',
        apiKey: form.apiKey,
      });
      expectProblem(again, 404, SUBMISSION_NOT_FOUND);
      const read = await request(`${base(form)}/${rows[0].id}`, {
        apiKey: form.apiKey,
      });
      expect(read.status).toBe(404);
    });

    it('does not delete another form’s submission through this form', async () => {
      const form = await createForm(t, owner.account.id);
      const other = await createForm(t, owner.account.id);
      const [foreign] = await insertSubmissions(t, other.form.id, [
        { createdAt: at('2025-01-01T00:00:00Z') },
      ]);
      const res = await request(`${base(form)}/${foreign.id}`, {
        method: 'DELETE',
        apiKey: owner.apiKey,
      });
      expectProblem(res, 404, SUBMISSION_NOT_FOUND);
      expect(await storedIds(other)).toEqual([foreign.id]);
    });
  });

  describe('bulk delete', () => {
    it('deletes the rows in [from, to) and reports the count', async () => {
      const form = await createForm(t, owner.account.id);
      const rows = await insertSubmissions(t, form.form.id, [
        { createdAt: at('2025-04-30T23:59:59.999Z') },
        { createdAt: at('2025-05-01T00:00:00.000Z') },
        { createdAt: at('2025-05-15T00:00:00.000Z') },
        { createdAt: at('2025-05-31T23:59:59.999Z') },
        { createdAt: at('2025-06-01T00:00:00.000Z') },
      ]);
      const res = await request(`${base(form)}?from=2025-05-01&to=2025-06-01`, {
        method: 'DELETE',
        apiKey: form.apiKey,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ deleted: 3 });
      expect(await storedIds(form)).toEqual([rows[4].id, rows[0].id]);
    });

    it('deletes every row of the form without bounds, more than one batch included', async () => {
      const form = await createForm(t, owner.account.id);
      const other = await createForm(t, owner.account.id);
      await insertSubmissions(
        t,
        form.form.id,
        Array.from({ length: 1203 }, (_, i) => ({
          createdAt: new Date(Date.UTC(2025, 0, 1) + Math.floor(i / 3)),
        })),
      );
      const [kept] = await insertSubmissions(t, other.form.id, [
        { createdAt: at('2025-01-01T00:00:00Z') },
      ]);
      const res = await request(base(form), {
        method: 'DELETE',
        apiKey: form.apiKey,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ deleted: 1203 });
      expect(await repo().countBy({ formId: form.form.id })).toBe(0);
      expect(await storedIds(other)).toEqual([kept.id]);

      const none = await request(base(form), {
        method: 'DELETE',
        apiKey: form.apiKey,
      });
      expect(none.body).toEqual({ deleted: 0 });
    });

    it('rejects bad bounds and a q parameter', async () => {
      const form = await createForm(t, owner.account.id);
      await insertSubmissions(t, form.form.id, [
        { createdAt: at('2025-01-01T00:00:00Z') },
      ]);
      const bad = await request(`${base(form)}?from=soon`, {
        method: 'DELETE',
        apiKey: form.apiKey,
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('Validation failed');
      const q = await request(`${base(form)}?q=x`, {
        method: 'DELETE',
        apiKey: form.apiKey,
      });
      expectProblem(q, 400, {
        error: 'Validation failed',
        errors: ['property q should not exist'],
      });
      expect(await repo().countBy({ formId: form.form.id })).toBe(1);
    });
  });

  describe('access', () => {
    let form: TestForm;
    let sibling: TestForm;
    let stranger: TestAccount;
    let strangerForm: TestForm;
    let row: Submission;
    beforeAll(async () => {
      form = await createForm(t, owner.account.id);
      sibling = await createForm(t, owner.account.id);
      stranger = await createAccount(t);
      strangerForm = await createForm(t, stranger.account.id);
      [row] = await insertSubmissions(t, form.form.id, [
        { createdAt: at('2025-01-01T00:00:00Z') },
      ]);
    });
    const routes = (): Array<[string, string]> => [
      ['GET', base(form)],
      ['GET', `${base(form)}/export`],
      ['GET', `${base(form)}/export?format=ndjson`],
      ['GET', `${base(form)}/${row.id}`],
      ['DELETE', `${base(form)}/${row.id}`],
      ['DELETE', base(form)],
    ];

    it('answers 404 "Form not found" to another form’s key on every route', async () => {
      for (const [method, url] of routes()) {
        for (const apiKey of [
          sibling.apiKey,
          strangerForm.apiKey,
          stranger.apiKey,
        ]) {
          const res = await request(url, { method, apiKey });
          expectProblem(res, 404, FORM_NOT_FOUND, `${method} ${url}`);
        }
      }
      expect(await storedIds(form)).toEqual([row.id]);
    });

    it('answers 401 without a key and 403 with an unknown key on every route', async () => {
      for (const [method, url] of routes()) {
        const none = await request(url, { method });
        expectProblem(
          none,
          401,
          'API key required: send it in the x-api-key header or the apiKey query parameter',
        );
        const wrong = await request(url, {
          method,
          apiKey: 'fgk_not-a-real-key-0000000000',
        });
        expectProblem(wrong, 403, INVALID_API_KEY);
      }
      expect(await storedIds(form)).toEqual([row.id]);
    });

    it('lets the account key reach every form of the account', async () => {
      for (const target of [form, sibling]) {
        const res = await request(base(target), { apiKey: owner.apiKey });
        expect(res.status).toBe(200);
      }
      const res = await request(`${base(form)}/${row.id}`, {
        apiKey: owner.apiKey,
      });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(row.id);
    });

    it('answers 404 for a form id that does not exist', async () => {
      const res = await request(`${t.url}/api/v1/forms/nope/submissions`, {
        apiKey: owner.apiKey,
      });
      expectProblem(res, 404, FORM_NOT_FOUND);
    });
  });

  describe('service for the dashboard', () => {
    it('counts submissions and the latest time per form', async () => {
      const a = await createForm(t, owner.account.id);
      const b = await createForm(t, owner.account.id);
      await insertSubmissions(t, a.form.id, [
        { createdAt: at('2025-01-01T00:00:00.000Z') },
        { createdAt: at('2025-03-01T00:00:00.123Z') },
      ]);
      const stats = await t.app
        .get(SubmissionsService)
        .countByForms([a.form.id, b.form.id]);
      expect(stats.get(a.form.id)).toEqual({
        count: 2,
        lastAt: at('2025-03-01T00:00:00.123Z'),
      });
      expect(stats.get(b.form.id)).toEqual({ count: 0, lastAt: null });
    });
  });

  describe('OpenAPI', () => {
    it('documents every submissions route with parameters and responses', async () => {
      const res = await request(`${t.url}/docs-json`);
      expect(res.status).toBe(200);
      const doc = res.body;
      await SwaggerParser.validate(structuredClone(doc));
      const list = doc.paths['/api/v1/forms/{id}/submissions'];
      expect(
        list.get.parameters.map((p: { name: string }) => p.name).sort(),
      ).toEqual([
        'assignee',
        'cursor',
        'from',
        'id',
        'label',
        'limit',
        'q',
        'spam',
        'status',
        'to',
      ]);
      for (const status of ['200', '400', '401', '403', '404']) {
        expect(list.get.responses[status], `list ${status}`).toBeDefined();
      }
      expect(Object.keys(list.delete.responses)).toEqual(
        expect.arrayContaining(['200', '400', '401', '403', '404']),
      );
      const one = doc.paths['/api/v1/forms/{id}/submissions/{submissionId}'];
      expect(Object.keys(one.get.responses)).toEqual(
        expect.arrayContaining(['200', '401', '403', '404']),
      );
      expect(Object.keys(one.delete.responses)).toEqual(
        expect.arrayContaining(['204', '401', '403', '404']),
      );
      const exp = doc.paths['/api/v1/forms/{id}/submissions/export'];
      expect(Object.keys(exp.get.responses['200'].content)).toEqual([
        'text/csv',
        'application/x-ndjson',
      ]);
      const format = exp.get.parameters.find(
        (p: { name: string }) => p.name === 'format',
      );
      expect(format.schema.enum).toEqual(['csv', 'ndjson']);
      const schema = doc.components.schemas.SubmissionDto;
      expect(Object.keys(schema.properties).sort()).toEqual([
        'assignee',
        'createdAt',
        'data',
        'formId',
        'id',
        'labels',
        'meta',
        'noteCount',
        'spam',
        'spamReasons',
        'status',
      ]);
      const patch = one.patch;
      expect(Object.keys(patch.responses)).toEqual(
        expect.arrayContaining(['200', '400', '401', '403', '404']),
      );
      expect(Object.keys(patch.requestBody.content)).toEqual([
        'application/json',
      ]);
      expect(list.get.security).toEqual([
        { apiKeyHeader: [] },
        { apiKeyQuery: [] },
      ]);
    });
  });
});

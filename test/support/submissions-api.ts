// What the /api/v1/forms/:id/submissions specs share, bound to the spec's test app (a
// getter, since the app starts in beforeAll).
import { Submission } from '../../src/submissions/submission.entity.js';
import type { TestForm } from '../factories/forms.js';
import { request, type HttpResponse } from './http.js';
import type { TestApp } from './test-app.js';

export interface SubmissionPage {
  data: Array<{ id: string }>;
  nextCursor: string | null;
}

export function submissionsApi(app: () => TestApp) {
  const repo = () => app().dataSource.getRepository(Submission);
  const base = (form: TestForm) =>
    `${app().url}/api/v1/forms/${form.form.id}/submissions`;
  return {
    repo,
    base,
    /** The form's stored submission ids, newest first. */
    storedIds: async (form: TestForm) =>
      (
        await repo().find({
          where: { formId: form.form.id },
          order: { createdAt: 'DESC', id: 'DESC' },
        })
      ).map((row) => row.id),
    /** Follows nextCursor from the first page; returns every page's ids. */
    pageThrough: async (
      form: TestForm,
      query: string,
      between?: (page: number) => Promise<void>,
    ): Promise<string[][]> => {
      const pages: string[][] = [];
      let cursor: string | null = null;
      do {
        const suffix: string = cursor
          ? `&cursor=${encodeURIComponent(cursor)}`
          : '';
        const res: HttpResponse<SubmissionPage> = await request(
          `${base(form)}?${query}${suffix}`,
          {
            apiKey: form.apiKey,
          },
        );
        expect(res.status).toBe(200);
        expect(Object.keys(res.body).sort()).toEqual(['data', 'nextCursor']);
        pages.push(res.body.data.map((s) => s.id));
        cursor = res.body.nextCursor;
        if (between) await between(pages.length);
        expect(pages.length).toBeLessThan(50);
      } while (cursor !== null);
      return pages;
    },
  };
}

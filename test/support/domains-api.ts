// What the /api/v1/forms/:id/domains specs share, bound to the spec's test app (a getter,
// since the app starts in beforeAll).
import { FormDomain } from '../../src/domain-verification/form-domain.entity.js';
import type { TestForm } from '../factories/forms.js';
import { request, type RequestOptions } from './http.js';
import type { TestApp } from './test-app.js';

export function domainsApi(app: () => TestApp) {
  const domainsUrl = (formId: string) =>
    `${app().url}/api/v1/forms/${formId}/domains`;
  const api = (form: TestForm, path = '', options: RequestOptions = {}) =>
    request(`${domainsUrl(form.form.id)}${path}`, {
      apiKey: form.apiKey,
      ...options,
    });
  const repo = () => app().dataSource.getRepository(FormDomain);
  return {
    domainsUrl,
    api,
    addDomain: (form: TestForm, domain: unknown) =>
      api(form, '', { json: { domain } }),
    verify: (form: TestForm, domain: string) =>
      api(form, `/${encodeURIComponent(domain)}/verify`, { method: 'POST' }),
    storedDomains: (formId: string) =>
      repo().find({ where: { formId }, order: { domain: 'ASC' } }),
    storedDomain: (formId: string, domain: string) =>
      repo().findOneBy({ formId, domain }),
  };
}

// A cookie-keeping HTTP client for the dashboard's e2e tests: real requests over loopback,
// redirects not followed (tests assert them), CSRF tokens read from the pages like a browser.
import { TEST_PASSWORD } from '../factories/accounts.js';

export interface Page {
  status: number;
  headers: Headers;
  html: string;
  /** Location header of a redirect. */
  location: string | null;
  /** Raw Set-Cookie lines. */
  setCookies: string[];
}

/** The part of fetch this client uses. */
export type Transport = (
  url: string,
  init: {
    method: string;
    headers: Record<string, string>;
    body?: string;
    redirect: 'manual';
  },
) => Promise<Response>;

export class DashboardClient {
  readonly cookies = new Map<string, string>();
  /** Extra request headers (e.g. X-Forwarded-For in proxy tests). */
  headers: Record<string, string> = {};

  /** `transport`: how requests go out (fetch, or one from a loopback address of choice). */
  constructor(
    readonly baseUrl: string,
    private readonly transport: Transport = fetch,
  ) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async get(path: string): Promise<Page> {
    return this.send('GET', path);
  }

  /** Posts a form; `_csrf` is taken from `from` (a page path) unless given. */
  async post(
    path: string,
    fields: Record<string, string> | Array<[string, string]> = {},
    options: { from?: string; csrf?: string | null } = {},
  ): Promise<Page> {
    const entries = Array.isArray(fields)
      ? [...fields]
      : Object.entries(fields);
    if (options.csrf !== null) {
      const token =
        options.csrf ?? csrfOf((await this.get(options.from ?? path)).html);
      entries.push(['_csrf', token]);
    }
    return this.send('POST', path, new URLSearchParams(entries).toString());
  }

  /** Sends `body` as a form post unless another `contentType` is given. */
  async send(
    method: string,
    path: string,
    body?: string,
    contentType = 'application/x-www-form-urlencoded',
  ): Promise<Page> {
    const headers: Record<string, string> = { ...this.headers };
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader();
    if (body !== undefined) headers['content-type'] = contentType;
    const response = await this.transport(this.baseUrl + path, {
      method,
      headers,
      body,
      redirect: 'manual',
    });
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) =>
        /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(a),
      );
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return {
      status: response.status,
      headers: response.headers,
      html: await response.text(),
      location: response.headers.get('location'),
      setCookies,
    };
  }

  async signUp(email: string, password = TEST_PASSWORD): Promise<Page> {
    return this.post('/dashboard/signup', {
      email,
      password,
      confirmPassword: password,
    });
  }

  async logIn(email: string, password = TEST_PASSWORD): Promise<Page> {
    return this.post('/dashboard/login', { email, password });
  }
}

export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error('No CSRF token on the page');
  return match[1];
}

/** The text of the page without tags, whitespace collapsed (entities left as they are). */
export function textOf(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

let emailCounter = 0;
/** An email address no other account of this test process uses. */
export const freshEmail = (prefix = 'owner'): string =>
  `${prefix}${++emailCounter}-${Date.now()}@example.com`;

/** A signed-in client of a brand-new account, signed up through the dashboard from `ip`. */
export async function signedInClient(
  baseUrl: string,
  ip = '203.0.113.1',
  email = freshEmail(),
): Promise<DashboardClient> {
  const client = new DashboardClient(baseUrl);
  client.headers['x-forwarded-for'] = ip;
  const page = await client.signUp(email);
  expect(page.status).toBe(303);
  return client;
}

/** The part of `html` from the element with `id` up to the end of its section or form. */
export function sectionOf(html: string, id: string): string {
  const start = html.indexOf(`id="${id}"`);
  expect(start, `#${id}`).toBeGreaterThan(-1);
  const rest = html.slice(start);
  const end = rest.search(/<\/(section|form)>\s*(<section|<form|<%|$)/);
  return end === -1 ? rest : rest.slice(0, end);
}

// Posts the way a browser leaving the page does (a native HTML form post): the Fetch
// Metadata and Accept headers of a navigation; redirects are never followed, so a test
// sees the 303 itself.
import { request as httpRequest } from 'node:http';
import type { HttpResponse } from './http.js';

/** The headers Chromium sends with a native form post. */
export const NAVIGATION_HEADERS: Readonly<Record<string, string>> = {
  'sec-fetch-mode': 'navigate',
  'sec-fetch-dest': 'document',
  accept:
    'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
};

/**
 * A POST through node:http: fetch() would add its own `Sec-Fetch-Mode: cors`, which no
 * navigating browser sends. FormData and URLSearchParams are encoded as fetch would.
 */
export async function post(
  url: string,
  body: URLSearchParams | FormData | string,
  headers: Record<string, string> = {},
): Promise<HttpResponse> {
  const encoded = new Request(url, { method: 'POST', body });
  const bytes = Buffer.from(await encoded.arrayBuffer());
  const contentType = encoded.headers.get('content-type');
  const all: Record<string, string> = {
    ...(contentType === null ? {} : { 'content-type': contentType }),
    ...headers,
    'content-length': String(bytes.length),
  };
  const { status, responseHeaders, text } = await new Promise<{
    status: number;
    responseHeaders: Headers;
    text: string;
  }>((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: all }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (value === undefined) continue;
          for (const item of Array.isArray(value) ? value : [value]) {
            responseHeaders.append(name, item);
          }
        }
        resolve({
          status: res.statusCode ?? 0,
          responseHeaders,
          text: Buffer.concat(chunks).toString('utf8'),
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(bytes);
  });
  const json = (responseHeaders.get('content-type') ?? '').includes('json');
  return {
    status,
    headers: responseHeaders,
    text,
    body: json && text ? JSON.parse(text) : undefined,
  };
}

/** A native form post (form-encoded unless `body` is FormData). */
export function navigate(
  url: string,
  body: Record<string, string> | FormData | URLSearchParams,
  headers: Record<string, string> = {},
): Promise<HttpResponse> {
  const payload =
    body instanceof FormData || body instanceof URLSearchParams
      ? body
      : new URLSearchParams(body);
  return post(url, payload, { ...NAVIGATION_HEADERS, ...headers });
}

/** The text of an HTML page without its tags, entities decoded, spaces collapsed. */
export function pageText(html: string): string {
  const body = html.replace(/^[\s\S]*<body>|<script>[\s\S]*?<\/script>/g, '');
  return body
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

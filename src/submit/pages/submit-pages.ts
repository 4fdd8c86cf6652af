// The small pages a visitor's browser shows after posting a form natively (an HTML form,
// not a script): a thank-you page, the validation errors, or why the post was refused.
// Self-contained (inline style and one inline script, allowed by their hashes in the
// Content-Security-Policy), so they load nothing from the dashboard and set no cookie.
import { createHash } from 'node:crypto';

export const DEFAULT_SUCCESS_MESSAGE = 'Thank you! Your message has been sent.';

const STYLE = `
:root{color-scheme:light dark;--fg:#1f2330;--muted:#5b6170;--bg:#f5f6f8;--card:#fff;--line:#d9dce3;--accent:#2456d6;--bad:#b42318}
@media (prefers-color-scheme:dark){:root{--fg:#eceef3;--muted:#b3b8c4;--bg:#14161b;--card:#1d2027;--line:#343844;--accent:#8fb0ff;--bad:#ff8a80}}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:1.5rem;background:var(--bg);color:var(--fg);font:1rem/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{width:100%;max-width:34rem;background:var(--card);border:1px solid var(--line);border-radius:.75rem;padding:2rem}
h1{margin:0 0 .75rem;font-size:1.5rem;line-height:1.25}
p{margin:0 0 1rem}
.message{white-space:pre-line}
ul{margin:0 0 1.25rem;padding-left:1.25rem;color:var(--bad)}
li{margin:.25rem 0}
.muted{color:var(--muted);font-size:.9rem}
a{color:var(--accent);font-weight:600}
a:focus-visible{outline:3px solid var(--accent);outline-offset:3px;border-radius:2px}
`.trim();

// Going back through the history keeps what the visitor typed; the link's own address is
// the fallback when there is no history (a new tab) or scripts are off.
const SCRIPT = `document.querySelectorAll('a[data-back]').forEach(function(a){a.addEventListener('click',function(e){if(history.length>1){e.preventDefault();history.back();}});});`;

const hash = (text: string) =>
  `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** Headers of every page: nothing loads but the inline style and script above. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': [
    "default-src 'none'",
    `style-src ${hash(STYLE)}`,
    `script-src ${hash(SCRIPT)}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The page the visitor came from, when it is an http(s) URL worth linking to. */
export function backLink(referer: string | undefined): string | null {
  if (typeof referer !== 'string' || !/^https?:\/\//i.test(referer)) {
    return null;
  }
  try {
    const url = new URL(referer);
    return url.protocol === 'http:' || url.protocol === 'https:'
      ? url.href
      : null;
  } catch {
    return null;
  }
}

function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${content}
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

function back(link: string | null, label: string): string {
  return link === null
    ? `<p class="muted">Use your browser's Back button to return to the form.</p>`
    : `<p><a href="${escapeHtml(link)}" data-back>${escapeHtml(label)}</a></p>`;
}

/** 200: the form's own message (plain text) or the default one. */
export function thankYouPage(
  message: string | null,
  referer: string | undefined,
): string {
  return page(
    'Thank you',
    `<h1>Thank you</h1>
<p class="message" role="status">${escapeHtml(message ?? DEFAULT_SUCCESS_MESSAGE)}</p>
${back(backLink(referer), 'Back to the site')}`,
  );
}

/**
 * A message as a visitor reads it: a field the form labels is named by its label
 * ("Your email must be a valid email address"), not by the id the message starts with.
 */
export function labelled(
  message: string,
  issue: { field?: string; label?: string } | undefined,
): string {
  const { field, label } = issue ?? {};
  if (!field || !label || !message.startsWith(field)) return message;
  const rest = message.slice(field.length);
  return rest.startsWith(' ') || rest.startsWith(':') ? label + rest : message;
}

/** 400: every problem, each naming its field (by its label when it has one). */
export function validationPage(
  errors: readonly string[],
  referer: string | undefined,
  issues?: ReadonlyArray<{ field?: string; label?: string }>,
): string {
  const items = errors
    .map(
      (error, index) =>
        `<li>${escapeHtml(labelled(error, issues?.[index]))}</li>`,
    )
    .join('\n');
  return page(
    'Please check the form',
    `<h1>Please check the form</h1>
<p>The form was not sent. Please correct the following and send it again:</p>
<ul>
${items}
</ul>
${back(backLink(referer), 'Back to the form')}`,
  );
}

const REFUSALS: Record<number, { title: string; explain: string }> = {
  400: {
    title: 'The form could not be read',
    explain: 'The data sent by the form could not be read.',
  },
  403: {
    title: 'This site may not use this form',
    explain:
      'This form only accepts submissions from the websites its owner has verified.',
  },
  404: {
    title: 'Form not found',
    explain:
      'The form you filled in sends to an address that does not exist (it may have been removed). Please contact the site owner another way.',
  },
  409: {
    title: 'Please try again shortly',
    explain:
      'The same form is still being saved from an earlier attempt. Please wait a moment and try again.',
  },
  413: {
    title: 'Too much data',
    explain:
      'The form sent more data than is accepted. Please shorten your entries and try again.',
  },
  415: {
    title: 'Unsupported form',
    explain:
      'The form sends its data in an encoding that is not accepted (use the default encoding or multipart/form-data).',
  },
  422: {
    title: 'This request was already sent differently',
    explain:
      'A different version of this form was already sent with the same request key. Please reload the page and try again.',
  },
  429: {
    title: 'Too many submissions',
    explain:
      'Too many forms were sent from your network in a short time. Please wait a moment and try again.',
  },
  503: {
    title: 'Temporarily unavailable',
    explain:
      'The form could not be saved right now. Please try again in a moment.',
  },
};

/** Any other refusal: why, in words a visitor understands, and the technical detail. */
export function refusalPage(
  status: number,
  detail: string | undefined,
  referer: string | undefined,
): string {
  const refusal = REFUSALS[status] ?? {
    title: 'Something went wrong',
    explain: 'The form could not be sent. Please try again later.',
  };
  const shown =
    detail !== undefined && detail !== ''
      ? `<p class="muted">${escapeHtml(detail)}</p>\n`
      : '';
  return page(
    refusal.title,
    `<h1>${escapeHtml(refusal.title)}</h1>
<p>${escapeHtml(refusal.explain)}</p>
${shown}${back(backLink(referer), 'Back to the site')}`,
  );
}

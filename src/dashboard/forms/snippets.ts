// Ready-to-paste code for a form's page: an HTML <form> that posts to the submit endpoint
// (the visitor lands on a thank-you page, or on the form's redirect address), and the same
// form sent with fetch() and FormData. Both carry the honeypot input the API checks, and
// the widget of the form's CAPTCHA when it has one (ALTCHA from this service itself).
import type { FieldDefinition } from '../../forms/form.entity.js';
import type { CaptchaProvider } from '../../forms/settings/spam-settings.js';

/** The form's CAPTCHA, as its snippets load it. */
export interface SnippetCaptcha {
  provider: CaptchaProvider;
  siteKey: string | null;
  /** Where this service serves the ALTCHA widget. */
  widgetUrl: string;
}

/** The third-party widgets' scripts and elements (their own documented markup). */
const PROVIDER_WIDGETS: Record<
  Exclude<CaptchaProvider, 'altcha'>,
  { script: string; className: string }
> = {
  turnstile: {
    script: 'https://challenges.cloudflare.com/turnstile/v0/api.js',
    className: 'cf-turnstile',
  },
  hcaptcha: {
    script: 'https://js.hcaptcha.com/1/api.js',
    className: 'h-captcha',
  },
  recaptcha: {
    script: 'https://www.google.com/recaptcha/api.js',
    className: 'g-recaptcha',
  },
};

/** The <script> a page loads for the widget, before the form. */
function captchaScript(captcha: SnippetCaptcha | null): string[] {
  if (captcha === null) return [];
  const src =
    captcha.provider === 'altcha'
      ? captcha.widgetUrl
      : PROVIDER_WIDGETS[captcha.provider].script;
  return [`<script src="${html(src)}" async defer></script>`];
}

/** The widget inside the form: it adds its answer as a field when solved. */
function captchaWidget(
  captcha: SnippetCaptcha | null,
  submitUrl: string,
): string[] {
  if (captcha === null) return [];
  if (captcha.provider === 'altcha') {
    return [
      '  <!-- Proof of work, served by Formgate: no third party, no account. It solves -->',
      '  <!-- itself while the visitor fills the form in (auto="onload"): nothing to tick. -->',
      `  <altcha-widget challenge="${html(`${submitUrl}/challenge`)}" auto="onload"></altcha-widget>`,
    ];
  }
  const widget = PROVIDER_WIDGETS[captcha.provider];
  return [
    `  <div class="${widget.className}" data-sitekey="${html(captcha.siteKey ?? 'YOUR_SITE_KEY')}"></div>`,
  ];
}

/** Escapes text for the owner's HTML (the dashboard escapes the whole snippet again). */
function html(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A JavaScript string literal, safe inside an HTML <script> element. */
function jsString(text: string): string {
  return JSON.stringify(text).replace(/</g, '\\u003c');
}

/** For forms without configured fields (any keys accepted), a sensible example. */
const EXAMPLE_FIELDS: FieldDefinition[] = [
  { id: 'email', type: 'email', label: 'Email', required: true },
  { id: 'message', type: 'textarea', label: 'Message', required: true },
];

const HONEYPOT = [
  '  <!-- Spam trap: people never see or fill this; bots do. Keep it empty and hidden. -->',
  '  <input type="text" name="_honeypot" tabindex="-1" autocomplete="off" aria-hidden="true"',
  '         style="position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden">',
];

function labelOf(field: FieldDefinition): string {
  return field.label?.trim() || field.id;
}

function control(field: FieldDefinition): string[] {
  const id = html(`fg-${field.id}`);
  const name = html(field.id);
  const required = field.required ? ' required' : '';
  const maxLength = field.maxLength ? ` maxlength="${field.maxLength}"` : '';
  const label = html(labelOf(field));
  switch (field.type) {
    case 'checkbox':
      return [
        `  <label><input type="checkbox" name="${name}" value="true"${required}> ${label}</label>`,
      ];
    case 'textarea':
      return [
        `  <label for="${id}">${label}</label>`,
        `  <textarea id="${id}" name="${name}" rows="5"${maxLength}${required}></textarea>`,
      ];
    case 'file': {
      // The field's formats, as a browser's file picker filters them (the server judges
      // the bytes either way); several files when the field takes more than one.
      const accept = field.accept
        ? ` accept="${html(field.accept.join(','))}"`
        : '';
      const multiple = (field.maxFiles ?? 1) > 1 ? ' multiple' : '';
      return [
        `  <label for="${id}">${label}</label>`,
        `  <input type="file" id="${id}" name="${name}"${accept}${multiple}${required}>`,
      ];
    }
    case 'select':
      return [
        `  <label for="${id}">${label}</label>`,
        `  <select id="${id}" name="${name}"${required}>`,
        '    <option value="">Choose…</option>',
        ...(field.options ?? []).map(
          (option) => `    <option>${html(option)}</option>`,
        ),
        '  </select>',
      ];
    default:
      return [
        `  <label for="${id}">${label}</label>`,
        `  <input type="${field.type}" id="${id}" name="${name}"${maxLength}${required}>`,
      ];
  }
}

function formBody(fields: FieldDefinition[], widget: string[] = []): string[] {
  const shown = fields.length > 0 ? fields : EXAMPLE_FIELDS;
  return [
    ...shown.flatMap(control),
    ...HONEYPOT,
    ...widget,
    '  <button type="submit">Send</button>',
  ];
}

const REDIRECT_HINT = [
  '  <!-- After sending, the visitor sees a thank-you page. To send them to a page of your',
  "       own instead, set the form's redirect address in its settings, or add (on that",
  "       address's host or a verified domain):",
  '       <input type="hidden" name="_redirect" value="https://www.example.com/thanks"> -->',
];

/** A plain HTML form: the browser posts it and shows the thank-you page (or redirects). */
export function htmlSnippet(
  submitUrl: string,
  fields: FieldDefinition[],
  captcha: SnippetCaptcha | null = null,
): string {
  return [
    ...captchaScript(captcha),
    // Files are sent only in multipart bodies.
    fields.some((field) => field.type === 'file')
      ? `<form action="${html(submitUrl)}" method="POST" enctype="multipart/form-data">`
      : `<form action="${html(submitUrl)}" method="POST">`,
    ...REDIRECT_HINT,
    ...formBody(fields, captchaWidget(captcha, submitUrl)),
    '</form>',
  ].join('\n');
}

const FILES_HINT = [
  '    // The form has file fields: FormData sends them as multipart/form-data. Set no',
  "    // Content-Type header yourself: the browser adds it, with the parts' boundary.",
];

/** The same form sent with fetch() and FormData, showing the result on the page. */
export function fetchSnippet(
  submitUrl: string,
  fields: FieldDefinition[],
  captcha: SnippetCaptcha | null = null,
): string {
  return [
    ...captchaScript(captcha),
    '<form id="formgate-form">',
    ...formBody(fields, captchaWidget(captcha, submitUrl)),
    '</form>',
    '<p id="formgate-status" role="status"></p>',
    '<script>',
    "  const form = document.getElementById('formgate-form');",
    "  const status = document.getElementById('formgate-status');",
    "  form.addEventListener('submit', async (event) => {",
    '    event.preventDefault();',
    ...(fields.some((field) => field.type === 'file') ? FILES_HINT : []),
    `    const response = await fetch(${jsString(submitUrl)}, {`,
    "      method: 'POST',",
    '      body: new FormData(form),',
    '    });',
    '    const result = await response.json();',
    '    if (response.ok) {',
    "      status.textContent = 'Thank you! Your message was sent.';",
    '      form.reset();',
    "      // To send the visitor to a page of your own instead: location.href = '/thanks';",
    '    } else {',
    "      status.textContent = (result.errors ?? [result.error]).join(' ');",
    '    }',
    '  });',
    '</script>',
  ].join('\n');
}

/**
 * "Coming from Formspree?": the one address to change in an existing page, for a plain
 * HTML form and for Formspree's client libraries (docs/formspree.md).
 */
export function formspreeSnippet(baseUrl: string, formId: string): string {
  const action = `${baseUrl}/f/${encodeURIComponent(formId)}`;
  return [
    '<!-- Coming from Formspree? Keep your form as it is and change only its address:',
    '       before: <form action="https://formspree.io/f/…" method="POST"> -->',
    `<form action="${html(action)}" method="POST">`,
    '  <!-- your fields, _gotcha, _next, _subject and _replyto work as before -->',
    '</form>',
    '',
    '<!-- With @formspree/core (or @formspree/react, built on it), set the endpoint:',
    '       import { createClient } from "@formspree/core";',
    `       await createClient().submitForm("${html(formId)}", data, { endpoint: "${html(baseUrl)}" });`,
    `       React: useForm("${html(formId)}", { endpoint: "${html(baseUrl)}" }) -->`,
  ].join('\n');
}

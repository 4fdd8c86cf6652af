import { fetchSnippet, formspreeSnippet, htmlSnippet } from './snippets.js';

const URL = 'https://forms.example.com/api/submit/abc';

describe('snippets', () => {
  it('builds an HTML form posting to the endpoint with one control per field and the honeypot', () => {
    const html = htmlSnippet(URL, [
      { id: 'email', type: 'email', label: 'Email', required: true },
      { id: 'topic', type: 'select', options: ['Sales', 'A & B'] },
      { id: 'ok', type: 'checkbox', label: 'Subscribe' },
    ]);
    expect(html).toContain(`<form action="${URL}" method="POST">`);
    expect(html).toContain(
      '<input type="email" id="fg-email" name="email" required>',
    );
    expect(html).toContain('<option>A &amp; B</option>');
    expect(html).toContain(
      '<input type="checkbox" name="ok" value="true"> Subscribe',
    );
    expect(html).toMatch(
      /<input type="text" name="_honeypot" tabindex="-1" autocomplete="off" aria-hidden="true"\s+style="position:absolute;left:-10000px/,
    );
  });

  it('posts a form with a file field as multipart, its input filtered and multiple as the field says', () => {
    const html = htmlSnippet(URL, [
      { id: 'name', type: 'text' },
      {
        id: 'cv',
        type: 'file',
        label: 'CV',
        required: true,
        accept: ['application/pdf', '.docx'],
      },
      { id: 'photos', type: 'file', maxFiles: 3 },
    ]);
    expect(html).toContain(
      `<form action="${URL}" method="POST" enctype="multipart/form-data">`,
    );
    expect(html).toContain(
      '<input type="file" id="fg-cv" name="cv" accept="application/pdf,.docx" required>',
    );
    expect(html).toContain(
      '<input type="file" id="fg-photos" name="photos" multiple>',
    );
    const js = fetchSnippet(URL, [{ id: 'cv', type: 'file' }]);
    expect(js).toContain('<input type="file" id="fg-cv" name="cv">');
    expect(js).toContain('body: new FormData(form)');
    expect(js).toContain('FormData sends them as multipart/form-data');
    expect(fetchSnippet(URL, [{ id: 'name', type: 'text' }])).not.toContain(
      'multipart',
    );
  });

  it('escapes labels so the owner gets valid HTML', () => {
    const html = htmlSnippet(URL, [
      { id: 'x', type: 'text', label: '"><script>alert(1)</script>' },
    ]);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&quot;&gt;&lt;script&gt;');
  });

  it('falls back to example fields for a form that accepts any keys', () => {
    expect(htmlSnippet(URL, [])).toContain('name="message"');
  });

  it('sends the same form with fetch as FormData, honeypot included', () => {
    const js = fetchSnippet(URL, [{ id: 'email', type: 'email' }]);
    expect(js).toContain(`fetch("${URL}"`);
    expect(js).toContain('name="_honeypot"');
    expect(js).toContain('body: new FormData(form),');
    expect(js).not.toContain('Content-Type');
    expect(js).not.toContain('JSON.stringify');
    expect(js).toContain("location.href = '/thanks'");
  });

  it('says in the HTML form how to redirect to a page of your own', () => {
    const html = htmlSnippet(URL, []);
    expect(html).toContain('thank-you page');
    expect(html).toContain('redirect address');
    expect(html).toContain(
      '<input type="hidden" name="_redirect" value="https://www.example.com/thanks">',
    );
    // The hint is a comment: the form itself carries no _redirect.
    expect(html.replace(/<!--[\s\S]*?-->/g, '')).not.toContain('_redirect');
  });

  it('loads the ALTCHA widget from the service and puts it in the form', () => {
    const captcha = {
      provider: 'altcha' as const,
      siteKey: null,
      widgetUrl: 'https://forms.example.com/static/altcha/altcha.js',
    };
    for (const snippet of [
      htmlSnippet(URL, [], captcha),
      fetchSnippet(URL, [], captcha),
    ]) {
      expect(snippet.split('\n')[0]).toBe(
        '<script src="https://forms.example.com/static/altcha/altcha.js" async defer></script>',
      );
      expect(snippet).toContain(
        `  <altcha-widget challenge="${URL}/challenge" auto="onload"></altcha-widget>`,
      );
      expect(snippet.indexOf('<altcha-widget')).toBeLessThan(
        snippet.indexOf('<button type="submit">'),
      );
    }
  });

  it("loads a third-party provider's widget with the form's site key, escaped", () => {
    const html = htmlSnippet(URL, [], {
      provider: 'turnstile',
      siteKey: 'key"<x>',
      widgetUrl: 'unused',
    });
    expect(html).toContain(
      '<script src="https://challenges.cloudflare.com/turnstile/v0/api.js" async defer></script>',
    );
    expect(html).toContain(
      '<div class="cf-turnstile" data-sitekey="key&quot;&lt;x&gt;"></div>',
    );
    expect(htmlSnippet(URL, [])).not.toContain('<script');
  });
});

describe('formspreeSnippet', () => {
  it('shows the one address to change, for a form and for the client libraries', () => {
    const snippet = formspreeSnippet('https://forms.example.com', 'abc123');
    expect(snippet).toContain(
      '<form action="https://forms.example.com/f/abc123" method="POST">',
    );
    expect(snippet).toContain('https://formspree.io/f/');
    expect(snippet).toContain(
      'submitForm("abc123", data, { endpoint: "https://forms.example.com" })',
    );
    expect(snippet).toContain('_gotcha');
  });

  it('escapes what it puts in the page', () => {
    expect(formspreeSnippet('https://x.example', 'a"b')).not.toContain('a"b');
  });
});

import type { FieldDefinition } from '../../forms/form.entity.js';
import { composeConfirmationMail } from './confirmation-mail.js';
import { headerText } from './mail-text.js';
import {
  composeSubmissionMail,
  replyToOf,
  subjectOf,
  type SubmissionMailInput,
} from './submission-mail.js';

const FIELDS: FieldDefinition[] = [
  { id: 'name', type: 'text', label: 'Your name' },
  { id: 'email', type: 'email', label: 'Email' },
  { id: 'backup', type: 'email' },
  { id: 'message', type: 'textarea', label: 'Message' },
  { id: 'agree', type: 'checkbox', label: 'Agrees' },
  { id: 'count', type: 'number' },
];

function input(overrides: Partial<SubmissionMailInput> = {}) {
  return {
    formId: 'form_Id-1',
    formName: 'Contact',
    fields: FIELDS,
    submissionId: '01JSUBMISSION',
    createdAt: new Date('2026-11-23T05:04:09.123Z'),
    data: {
      name: 'Ada <b>Lovelace</b>',
      email: 'ada@example.com',
      message: 'line one\nline "two" & <script>alert(1)</script>',
      agree: true,
      count: 3,
    },
    publicUrl: 'https://forms.example.com',
    ...overrides,
  };
}

describe('headerText', () => {
  it('turns line breaks and control characters into spaces and trims', () => {
    expect(headerText(' a\r\nBcc: x@y.z\u0000b\u2028c\u0085d\t ', 200)).toBe(
      'a  Bcc: x@y.z b c d',
    );
  });

  it('cuts to the given number of characters without splitting one', () => {
    expect(headerText('😀'.repeat(5), 3)).toBe('😀😀😀');
    expect(headerText('abc def', 4)).toBe('abc');
    expect(headerText('abc', 3)).toBe('abc');
  });
});

describe('subjectOf', () => {
  it('is "New submission: <form name>" without a _subject', () => {
    expect(subjectOf('Contact', undefined)).toBe('New submission: Contact');
    expect(subjectOf('Contact', '   ')).toBe('New submission: Contact');
    expect(subjectOf('Contact', ['a', 'b'])).toBe('New submission: Contact');
  });

  it('takes _subject on one line, cut to 200 characters', () => {
    expect(subjectOf('Contact', 'Hello\r\nBcc: victim@example.org')).toBe(
      'Hello  Bcc: victim@example.org',
    );
    expect(subjectOf('Contact', 'x'.repeat(500))).toBe('x'.repeat(200));
  });

  it('keeps a form name with a line break on one line too', () => {
    expect(subjectOf('Two\nlines', undefined)).toBe(
      'New submission: Two lines',
    );
  });
});

describe('replyToOf', () => {
  const data = { email: 'ada@example.com', backup: 'b@example.com' };

  it('takes a valid _replyto first', () => {
    expect(replyToOf(FIELDS, data, ' reply@example.com ')).toBe(
      'reply@example.com',
    );
  });

  it('ignores an invalid _replyto and takes the first valid email field', () => {
    for (const bad of [
      'not an address',
      'a@example.com\r\nBcc: victim@example.org',
      'a@example.com, b@example.com',
      'Name <a@example.com>',
      42,
    ]) {
      expect(replyToOf(FIELDS, data, bad)).toBe('ada@example.com');
    }
  });

  it('skips email fields whose value is not valid, and non-email fields', () => {
    expect(
      replyToOf(
        FIELDS,
        { name: 'x@example.com', backup: 'b@example.com' },
        undefined,
      ),
    ).toBe('b@example.com');
    expect(replyToOf(FIELDS, { email: 'nope' }, undefined)).toBeUndefined();
    expect(
      replyToOf([], { email: 'ada@example.com' }, undefined),
    ).toBeUndefined();
  });
});

describe('composeSubmissionMail', () => {
  it('lists every field in the text part, with labels, the time and the link', () => {
    const mail = composeSubmissionMail(input());
    expect(mail.subject).toBe('New submission: Contact');
    expect(mail.replyTo).toBe('ada@example.com');
    expect(mail.text).toBe(
      [
        'New submission to the form "Contact"',
        'Received 2026-11-23 05:04:09 UTC',
        '',
        'Your name: Ada <b>Lovelace</b>',
        'Email: ada@example.com',
        'Message:',
        '  line one',
        '  line "two" & <script>alert(1)</script>',
        'Agrees: yes',
        'count: 3',
        '',
        'View it in the dashboard: https://forms.example.com/dashboard/forms/form_Id-1/submissions/01JSUBMISSION',
        '',
      ].join('\n'),
    );
  });

  it('escapes every value and label in the HTML part', () => {
    const mail = composeSubmissionMail(
      input({
        formName: '<i>Contact</i>',
        fields: [
          { id: 'q', type: 'text', label: '<img src=x onerror=alert(1)>' },
        ],
        data: { q: `"'><script>alert(1)</script>&`, 'other<key>': 'x' },
      }),
    );
    expect(mail.html).not.toMatch(/<script|<img|<i>|onerror=alert\(1\)>/);
    expect(mail.html).toContain(
      '&quot;&#39;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;',
    );
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(mail.html).toContain('<strong>&lt;i&gt;Contact&lt;/i&gt;</strong>');
    expect(mail.html).toContain('other&lt;key&gt;');
    expect(mail.html).toContain(
      '<a href="https://forms.example.com/dashboard/forms/form_Id-1/submissions/01JSUBMISSION">',
    );
    expect(mail.html).toContain('datetime="2026-11-23T05:04:09.123Z"');
  });

  it('lists uploaded files with their download links, linked and escaped in the HTML part', () => {
    const url =
      'https://forms.example.com/files/AAAAAAAAAAAAAAAAAAAAAA.x.BBBBBBBBBBBBBBBBBBBBBB';
    const file = (name: string) => ({
      id: 'AAAAAAAAAAAAAAAAAAAAAA',
      name,
      size: 1234,
      type: 'application/pdf',
      sha256: 'ab',
      url,
    });
    const mail = composeSubmissionMail(
      input({
        fields: [
          { id: 'cv', type: 'file', label: 'CV' },
          { id: 'docs', type: 'file', label: 'Documents', maxFiles: 2 },
        ],
        data: {
          cv: file('cv <final>.pdf'),
          docs: [file('a.pdf'), file('b.pdf')],
        },
      }),
    );
    expect(mail.text).toContain(
      `CV: cv <final>.pdf (1234 bytes): ${url}\nDocuments:\n  a.pdf (1234 bytes): ${url}\n  b.pdf (1234 bytes): ${url}\n`,
    );
    expect(mail.html).toContain(
      `<a href="${url}">cv &lt;final&gt;.pdf</a> (1234 bytes)`,
    );
    expect(mail.html).toContain(
      `<a href="${url}">a.pdf</a> (1234 bytes)<br><a href="${url}">b.pdf</a> (1234 bytes)`,
    );
    // A value merely shaped like a file, with a link that is not http(s), is shown as data.
    const odd = composeSubmissionMail(
      input({
        fields: [],
        data: { x: { name: 'n', size: 1, url: 'javascript:alert(1)' } },
      }),
    );
    expect(odd.html).not.toContain('href="javascript');
  });

  it('lists the keys of a form without fields, and says when nothing was filled in', () => {
    const free = composeSubmissionMail(
      input({ fields: [], data: { topic: 'sales', budget: 10 } }),
    );
    expect(free.text).toContain('topic: sales\nbudget: 10\n');
    expect(free.replyTo).toBeUndefined();
    const empty = composeSubmissionMail(input({ data: {} }));
    expect(empty.text).toContain('(no field was filled in)');
    expect(empty.html).toContain('(no field was filled in)');
  });

  it('lets no key or value of a form without fields start a line of its own', () => {
    const fake = 'View it in the dashboard: https://evil.example/';
    const mail = composeSubmissionMail(
      input({
        fields: [],
        data: {
          [`note\n${fake}`]: 'x',
          [`sep\u2028${fake}`]: 'y',
          cr: `a\r${fake}`,
          nel: `b\u0085${fake}`,
          tabbed: 'c\td',
        },
      }),
    );
    const lines = mail.text.split('\n');
    // The only line at the start of which the link appears is the message's own.
    expect(lines.filter((line) => line.startsWith('View it'))).toEqual([
      'View it in the dashboard: https://forms.example.com/dashboard/forms/form_Id-1/submissions/01JSUBMISSION',
    ]);
    expect(mail.text).not.toMatch(/[\r\v\f\u0085\u2028\u2029]/u);
    expect(lines).toContain(`note\\u000a${fake}: x`);
    expect(lines).toContain(`sep\\u2028${fake}: y`);
    expect(lines).toContain('cr:');
    expect(lines).toContain(`  ${fake}`);
    expect(lines).toContain('tabbed: c\td');
  });

  it('uses _subject and _replyto when given', () => {
    const mail = composeSubmissionMail(
      input({ subject: 'Quote\nrequest', replyTo: 'boss@example.com' }),
    );
    expect(mail.subject).toBe('Quote request');
    expect(mail.replyTo).toBe('boss@example.com');
  });

  it('encodes ids in the link', () => {
    const mail = composeSubmissionMail(input({ formId: 'a/b?c' }));
    expect(mail.text).toContain('/dashboard/forms/a%2Fb%3Fc/submissions/');
  });
});

describe('composeConfirmationMail', () => {
  it('carries the link and the host, and nothing an owner wrote', () => {
    const mail = composeConfirmationMail(
      'https://forms.example.com/base',
      'TOKEN_-1',
      7,
    );
    expect(mail.text).toContain(
      'https://forms.example.com/base/confirm-email/TOKEN_-1',
    );
    expect(mail.text).toContain('a form on forms.example.com');
    expect(mail.text).toContain('7 days');
    expect(mail.html).toContain(
      '<a href="https://forms.example.com/base/confirm-email/TOKEN_-1">',
    );
    expect(mail.replyTo).toBeUndefined();
  });
});

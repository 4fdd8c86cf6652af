// The shape of the messages that ask an address to act on a link (confirm it receives a
// form's notifications, verify an account's own address): three sentences and the link,
// in a text and an HTML part, with nothing anyone typed.
import { escapeHtml } from './mail-text.js';
import type { ComposedMail } from './submission-mail.js';

export interface LinkMail {
  subject: string;
  /** Who asked, and where. */
  intro: string;
  /** What to do with the link. */
  ask: string;
  link: string;
  /** What happens if the reader did not ask. */
  otherwise: string;
}

export function composeLinkMail(mail: LinkMail): ComposedMail {
  const { intro, ask, link, otherwise } = mail;
  return {
    subject: mail.subject,
    text: [intro, '', ask, link, '', otherwise, ''].join('\n'),
    html: [
      '<!doctype html>',
      '<html><body style="font-family:sans-serif">',
      `<p>${escapeHtml(intro)}</p>`,
      `<p>${escapeHtml(ask)}</p>`,
      `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
      `<p>${escapeHtml(otherwise)}</p>`,
      '</body></html>',
      '',
    ].join('\n'),
  };
}

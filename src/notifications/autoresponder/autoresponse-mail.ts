// The autoresponse as it is mailed: the owner's subject and text, and nothing the visitor
// sent (no name, no quote — the address it goes to is the only thing of theirs). Headers
// say it is automatic (RFC 3834 `Auto-Submitted: auto-replied`, so other robots do not
// answer it) and offer the one-click unsubscribe of RFC 8058.
import type { AutoresponseSettings } from '../../forms/settings/autoresponse-settings.js';
import { escapeHtml, headerText } from '../email/mail-text.js';
import type { OutgoingMail } from '../email/mailer.js';

export function autoresponseMail(
  to: string,
  settings: AutoresponseSettings,
  unsubscribeUrl: string,
): OutgoingMail {
  const footer =
    'This is an automatic reply: this address was entered in a form. To receive no more of these, open:';
  const text = `${settings.text}\n\n-- \n${footer}\n${unsubscribeUrl}\n`;
  const paragraphs = settings.text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replaceAll('\n', '<br>')}</p>`)
    .join('\n');
  const html = `<!doctype html><html><body>${paragraphs}<hr><p style="color:#666;font-size:small">${escapeHtml(footer)} <a href="${escapeHtml(unsubscribeUrl)}">unsubscribe</a></p></body></html>`;
  return {
    to,
    subject: headerText(settings.subject, 150),
    text,
    html,
    ...(settings.replyTo === null ? {} : { replyTo: settings.replyTo }),
    headers: {
      'Auto-Submitted': 'auto-replied',
      'X-Auto-Response-Suppress': 'All',
      'List-Unsubscribe': `<${unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

// The one message an address receives before it has confirmed: a link, and nothing an
// account owner wrote (no form name, no note), so the service cannot carry anyone's text
// to a stranger.
import { composeLinkMail } from './link-mail.js';
import type { ComposedMail } from './submission-mail.js';

export const CONFIRMATION_SUBJECT = 'Confirm to receive form notifications';

export function confirmationLink(publicUrl: string, token: string): string {
  return `${publicUrl}/confirm-email/${encodeURIComponent(token)}`;
}

export function composeConfirmationMail(
  publicUrl: string,
  token: string,
  validDays: number,
): ComposedMail {
  const link = confirmationLink(publicUrl, token);
  const host = new URL(publicUrl).host;
  const intro = `Someone asked to send the submissions of a form on ${host} to this address.`;
  const ask = `If that was you or someone you work with, open the link below and select Confirm (the link works for ${validDays} days):`;
  const otherwise =
    'If not, ignore this message: nothing more will be sent to this address.';
  return composeLinkMail({
    subject: CONFIRMATION_SUBJECT,
    intro,
    ask,
    link,
    otherwise,
  });
}

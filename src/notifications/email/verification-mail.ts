// The message that verifies an account's own address: a link, and nothing anyone typed
// (not even the account's address beyond the envelope), so a sign-up naming a stranger
// carries no text of the person who signed up.
import { composeLinkMail } from './link-mail.js';
import type { ComposedMail } from './submission-mail.js';

export const VERIFICATION_SUBJECT = 'Verify your email address';

export function verificationLink(publicUrl: string, token: string): string {
  return `${publicUrl}/dashboard/verify-email/${encodeURIComponent(token)}`;
}

export function composeVerificationMail(
  publicUrl: string,
  token: string,
  validDays: number,
): ComposedMail {
  const link = verificationLink(publicUrl, token);
  const host = new URL(publicUrl).host;
  const intro = `Someone signed up on ${host} with this address.`;
  const ask = `If that was you, open the link below and select Verify (the link works for ${validDays} days), so that alerts about your account can reach you:`;
  const otherwise =
    'If not, ignore this message: that account sends nothing to this address.';
  return composeLinkMail({
    subject: VERIFICATION_SUBJECT,
    intro,
    ask,
    link,
    otherwise,
  });
}

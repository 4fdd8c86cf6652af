// The message inviting an address to join an account: who invited (a member's address or a
// key's name), the account's name, the role and the link. Nothing the inviter typed for the
// occasion: there is no note to add, so the service carries no one's message to a stranger.
import { composeLinkMail } from './link-mail.js';
import { oneLine } from './mail-text.js';
import type { ComposedMail } from './submission-mail.js';

export const INVITATION_SUBJECT = 'You are invited to join a team on Formgate';

export interface InvitationMailInput {
  publicUrl: string;
  token: string;
  accountName: string;
  /** The inviting member's address, or the name of the key that invited. */
  invitedBy: string;
  role: string;
  validDays: number;
}

export function invitationLink(publicUrl: string, token: string): string {
  return `${publicUrl}/dashboard/invitations/${encodeURIComponent(token)}`;
}

export function composeInvitationMail(
  input: InvitationMailInput,
): ComposedMail {
  const link = invitationLink(input.publicUrl, input.token);
  const host = new URL(input.publicUrl).host;
  // Names stay on one line in the text part; the HTML part escapes them.
  const intro = `${oneLine(input.invitedBy)} invited this address to the account "${oneLine(input.accountName)}" on ${host}, as ${input.role}.`;
  const ask = `To join, open the link below and sign in or create a password (the link works for ${input.validDays} days and once):`;
  const otherwise =
    'If you do not expect this, ignore this message: nothing happens unless the link is used.';
  return composeLinkMail({
    subject: INVITATION_SUBJECT,
    intro,
    ask,
    link,
    otherwise,
  });
}

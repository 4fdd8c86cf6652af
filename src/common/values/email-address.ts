// The one rule for an email address the server accepts from a person: submitted email
// fields, a form's notification recipients, the Reply-To of a notification, MAIL_FROM.
// It admits no character that means something in a mail header (no space, quote, angle
// bracket, comma, semicolon, colon or line break), so an address that passes can be put
// into a header as it is.

/** The HTML `type=email` rule, plus a dot in the domain (user@localhost is refused). */
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

/** Longest address SMTP allows (RFC 5321 path limit); checked before the pattern. */
export const MAX_EMAIL_ADDRESS_LENGTH = 254;

export function isEmailAddress(text: string): boolean {
  return text.length <= MAX_EMAIL_ADDRESS_LENGTH && EMAIL.test(text);
}

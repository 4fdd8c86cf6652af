// Outgoing mail settings (SMTP_URL, MAIL_FROM) and the public address links point to
// (PUBLIC_URL), checked at boot like every setting.
import { isEmailAddress } from '../common/values/email-address.js';
import { ConfigError } from './config-error.js';

/** Outgoing mail: notifications and confirmation links. */
export interface MailConfig {
  /** `smtp://` or `smtps://`, credentials included: never log it (see describeSmtp). */
  smtpUrl: string;
  from: { name: string; address: string };
}

function parseSmtpUrl(raw: string): string {
  // The value carries a password: no message below repeats it.
  const example = 'e.g. smtp://user:password@mail.example.com:587';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('SMTP_URL', `is not a valid URL (${example})`);
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new ConfigError(
      'SMTP_URL',
      `must start with smtp:// or smtps:// (${example})`,
    );
  }
  if (!url.hostname) {
    throw new ConfigError('SMTP_URL', `needs a host (${example})`);
  }
  return raw;
}

/** `address@example.com` or `Name <address@example.com>`. */
function parseMailFrom(raw: string): MailConfig['from'] {
  const open = raw.lastIndexOf('<');
  const bracketed = open !== -1 && raw.endsWith('>');
  const address = bracketed ? raw.slice(open + 1, -1).trim() : raw;
  const name = bracketed ? raw.slice(0, open).trim().replace(/^"|"$/g, '') : '';
  if (!isEmailAddress(address) || /[\p{Cc}"]/u.test(name)) {
    throw new ConfigError(
      'MAIL_FROM',
      `must be an address or "Name <address>", e.g. Formgate <forms@example.com>, got "${raw}"`,
    );
  }
  return { name, address };
}

export function parseMail(
  smtpUrl: string | undefined,
  mailFrom: string | undefined,
): MailConfig | null {
  if (smtpUrl === undefined && mailFrom === undefined) return null;
  if (smtpUrl === undefined) {
    throw new ConfigError('SMTP_URL', 'is required when MAIL_FROM is set');
  }
  if (mailFrom === undefined) {
    throw new ConfigError('MAIL_FROM', 'is required when SMTP_URL is set');
  }
  return { smtpUrl: parseSmtpUrl(smtpUrl), from: parseMailFrom(mailFrom) };
}

export function parsePublicUrl(raw: string): string {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (
    !url ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    !url.hostname ||
    url.search ||
    url.hash ||
    url.username ||
    url.password
  ) {
    throw new ConfigError(
      'PUBLIC_URL',
      `must be an http:// or https:// address without query or credentials, e.g. https://forms.example.com`,
    );
  }
  let path = url.pathname;
  while (path.endsWith('/')) path = path.slice(0, -1);
  return `${url.origin}${path}`;
}

/** The SMTP server in words, never with its credentials. */
export function describeSmtp(mail: MailConfig): string {
  const url = new URL(mail.smtpUrl);
  return `${url.protocol}//${url.host}`;
}

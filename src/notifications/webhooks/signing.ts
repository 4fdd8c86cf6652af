// Standard Webhooks signatures: `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`
// keyed with the secret's decoded bytes; several live secrets give space-separated
// signatures, any of which a receiver may verify.
import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

/** `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

export function signature(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const mac = createHmac('sha256', key)
    .update(`${id}.${timestamp}.${body}`)
    .digest('base64');
  return `v1,${mac}`;
}

/** The `webhook-*` headers of one request. */
export function signedHeaders(
  secrets: string[],
  id: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets
      .map((secret) => signature(secret, id, timestamp, body))
      .join(' '),
  };
}

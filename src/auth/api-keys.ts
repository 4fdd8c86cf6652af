// API keys: random, prefixed by kind, stored only as SHA-256 (the lookup path).
import { createHash, randomBytes } from 'node:crypto';

export type ApiKeyKind = 'form' | 'account';

export const API_KEY_PREFIX: Record<ApiKeyKind, string> = {
  form: 'fgk_',
  account: 'fga_',
};
/** How many leading characters of a key may be shown (prefix + 8). */
export const DISPLAY_PREFIX_LENGTH = 12;

export interface GeneratedApiKey {
  key: string;
  hash: string;
  prefix: string;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function generateApiKey(kind: ApiKeyKind): GeneratedApiKey {
  const key = API_KEY_PREFIX[kind] + randomBytes(32).toString('base64url');
  return {
    key,
    hash: hashApiKey(key),
    prefix: key.slice(0, DISPLAY_PREFIX_LENGTH),
  };
}

export function apiKeyKind(key: string): ApiKeyKind | undefined {
  if (key.startsWith(API_KEY_PREFIX.form)) return 'form';
  if (key.startsWith(API_KEY_PREFIX.account)) return 'account';
  return undefined;
}

/** A public, unguessable form identifier: 128 random bits, URL-safe (22 characters). */
export function generateFormId(): string {
  return randomBytes(16).toString('base64url');
}

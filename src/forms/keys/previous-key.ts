// A form's previous key: what a rotation keeps of the replaced key (for graceSeconds), and
// what the API shows of it while it is still accepted.
import type { PreviousApiKeyDto } from '../dto/form-response.dto.js';
import type { Form } from '../form.entity.js';
import type { CurrentKey, KeyChanges } from '../form.repository.js';

type PreviousKeyColumns = Pick<
  KeyChanges,
  | 'previousApiKeyHash'
  | 'previousApiKeyPrefix'
  | 'previousApiKeyExpiresAt'
  | 'previousApiKeyLastUsedAt'
>;

/**
 * The replaced key kept valid `graceSeconds` from `now` — never past its own expiry; with
 * 0 (or a key that has expired), none (refused at once).
 */
export function previousKeyColumns(
  current: CurrentKey,
  graceSeconds: number,
  now: Date,
): PreviousKeyColumns {
  const graceEnd = new Date(now.getTime() + graceSeconds * 1000);
  const own = current.apiKeyExpiresAt;
  const expiresAt = own && own < graceEnd ? own : graceEnd;
  if (graceSeconds <= 0 || expiresAt <= now) {
    return {
      previousApiKeyHash: null,
      previousApiKeyPrefix: null,
      previousApiKeyExpiresAt: null,
      previousApiKeyLastUsedAt: null,
    };
  }
  return {
    previousApiKeyHash: current.apiKeyHash,
    previousApiKeyPrefix: current.apiKeyPrefix,
    previousApiKeyExpiresAt: expiresAt,
    previousApiKeyLastUsedAt: current.apiKeyLastUsedAt,
  };
}

/** The replaced key still accepted after a rotation with grace, or null. */
export function previousKeyOf(form: Form): PreviousApiKeyDto | null {
  const expiresAt = form.previousApiKeyExpiresAt;
  if (!form.previousApiKeyPrefix || !expiresAt || expiresAt <= new Date()) {
    return null;
  }
  return {
    prefix: form.previousApiKeyPrefix,
    expiresAt: expiresAt.toISOString(),
    lastUsedAt: form.previousApiKeyLastUsedAt?.toISOString() ?? null,
  };
}

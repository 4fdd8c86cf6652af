// What a new account key must be, and what the API shows of one.
import type { AccountApiKey } from './account-api-key.entity.js';
import type { AccountKeyResponseDto } from './dto/account-key-response.dto.js';

/** Why a key named `name` expiring at `expiresAt` may not be made (none: it may). */
export function newKeyProblems(
  name: string,
  expiresAt: Date | null,
  limit: Date | null,
): string[] {
  const problems: string[] = [];
  if (name.length < 1 || name.length > 100) {
    problems.push('name must be 1 to 100 characters long');
  }
  if (expiresAt && expiresAt.getTime() <= Date.now()) {
    problems.push('expiresAt must be in the future');
  }
  if (limit && (!expiresAt || expiresAt > limit)) {
    problems.push(
      `expiresAt must be no later than ${limit.toISOString()}, when the key creating it expires`,
    );
  }
  return problems;
}

/** The one place an account key becomes what the API shows. */
export function accountKeyResponse(key: AccountApiKey): AccountKeyResponseDto {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    role: key.role,
    readOnly: key.role === 'viewer',
    expiresAt: key.expiresAt?.toISOString() ?? null,
  };
}

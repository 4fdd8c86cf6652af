// What is wrong with typed SSO settings, and SSO settings changes as `sso.updated` audit events (docs/audit.md): what changed, the
// client secret only as "changed".
import type { EntityManager } from 'typeorm';
import { CHANGED, changesOf } from '../audit/audit-details.js';
import { SYSTEM_ACTOR, type AuditActor } from '../audit/audit-actor.js';
import type { AuditDetails } from '../audit/audit-hash.js';
import type { AuditLogService } from '../audit/audit-log.service.js';
import type { ApiPrincipal } from '../auth/principal.js';
import { issuerUrlProblem } from './oidc-client.js';
import type { SsoSettings } from './sso-settings.entity.js';
import { isJoinRole } from './sso-settings.types.js';

export type SsoActor = ApiPrincipal | AuditActor;

const SETTINGS = [
  'issuerUrl',
  'clientId',
  'defaultRole',
  'requireSso',
] as const;

/** What a save changed: each setting before → after, `clientSecret: "changed"` when typed. */
export function savedDetails(
  before: Partial<SsoSettings> | null,
  after: Partial<SsoSettings>,
  secretTyped: boolean,
): AuditDetails {
  const details = changesOf<SsoSettings>(before ?? {}, after, [...SETTINGS]);
  if (secretTyped) details.clientSecret = CHANGED;
  if (Object.keys(details).length === 0) return details;
  return { change: before ? 'updated' : 'configured', ...details };
}

/**
 * Runs `change` in a transaction and records `sso.updated` in it with the details the change
 * answers (null or empty: nothing changed, no event).
 */
export function auditedSsoChange(
  auditLog: AuditLogService,
  accountId: string,
  actor: SsoActor | undefined,
  change: (manager: EntityManager) => Promise<AuditDetails | null>,
): Promise<void> {
  return auditLog.transaction(async (manager) => {
    const details = await change(manager);
    if (details === null || Object.keys(details).length === 0) return;
    await auditLog.record(manager, {
      accountId,
      actor: actor ?? SYSTEM_ACTOR,
      action: 'sso.updated',
      target: { type: 'account', id: accountId },
      details,
    });
  });
}

/** What is wrong with the typed settings (trimmed), one sentence each. */
export function settingsProblems(
  typed: {
    issuerUrl: string;
    clientId: string;
    clientSecret: string;
    defaultRole: string;
  },
  configured: boolean,
): string[] {
  const { issuerUrl, clientId, clientSecret } = typed;
  const errors: string[] = [];
  const issuerProblem = issuerUrl
    ? issuerUrlProblem(issuerUrl)
    : 'Issuer URL is required';
  if (issuerProblem) errors.push(issuerProblem);
  else if (issuerUrl.length > 500) {
    errors.push('Issuer URL must be at most 500 characters long');
  }
  if (!clientId) errors.push('Client id is required');
  else if (clientId.length > 255) {
    errors.push('Client id must be at most 255 characters long');
  }
  if (!clientSecret && !configured) errors.push('Client secret is required');
  if (clientSecret.length > 500) {
    errors.push('Client secret must be at most 500 characters long');
  }
  if (!isJoinRole(typed.defaultRole)) {
    errors.push('Role for new members must be viewer, editor or developer');
  }
  return errors;
}

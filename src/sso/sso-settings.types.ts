// What the SSO settings are made of: the roles people join with, the shapes the settings
// page and the sign-in read, and the domain of an address.

/** The roles a person may get by joining through SSO. */
export const SSO_JOIN_ROLES = ['viewer', 'editor', 'developer'] as const;
export type SsoJoinRole = (typeof SSO_JOIN_ROLES)[number];
export const DEFAULT_SSO_ROLE: SsoJoinRole = 'editor';

export interface SsoSettingsInput {
  issuerUrl: string;
  clientId: string;
  /** Empty: keep the stored secret (it is write-only). */
  clientSecret: string;
  defaultRole: string;
  requireSso: boolean;
}

export interface SsoDomainView {
  id: string;
  domain: string;
  status: 'pending' | 'verified';
  /** Where the TXT record goes (the domain, or `_formgate.<domain>`) and its value. */
  recordNames: [string, string];
  recordValue: string;
  verifiedAt: Date | null;
  lastCheckedAt: Date | null;
  lastError: string | null;
}

export interface SsoSettingsView {
  configured: boolean;
  issuerUrl: string;
  clientId: string;
  /** A secret is stored (never shown). */
  hasClientSecret: boolean;
  defaultRole: SsoJoinRole;
  requireSso: boolean;
  callbackUrl: string;
  domains: SsoDomainView[];
}

/** The settings the sign-in needs, the secret opened. */
export interface SsoRoute {
  accountId: string;
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
  defaultRole: SsoJoinRole;
  /** The account's verified SSO domains. */
  domains: string[];
}

export function isJoinRole(value: string): value is SsoJoinRole {
  return (SSO_JOIN_ROLES as readonly string[]).includes(value);
}

/** The domain of an address, lower-case, or '' when it has none. */
export function domainOfEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at === -1
    ? ''
    : email
        .slice(at + 1)
        .trim()
        .toLowerCase();
}

// What the sign-in security page shows (security.eta and its TOTP set-up and recovery
// codes pages).
import { roleHas, type Role } from '../../auth/permissions.js';
import type { PasskeyView } from '../../second-factors/passkeys.service.js';
import type { TotpSetup } from '../../second-factors/totp.service.js';
import type { PageErrors } from '../page-errors.js';

export const SECURITY_PATH = '/dashboard/account/security';

export const SECURITY_NOTICES: Record<string, string> = {
  'totp-on': 'Two-step codes are on.',
  'totp-off': 'Two-step codes are off, and your recovery codes no longer work.',
  'passkey-added': 'Your passkey was added.',
  'passkey-renamed': 'The passkey was renamed.',
  'passkey-removed': 'The passkey was removed.',
  'policy-saved': 'The account’s sign-in policy was saved.',
  'recovery-code-used':
    'You signed in with a recovery code; it works no more. Make new ones when you are running low.',
};

/** security.eta. */
export interface SecurityPageView {
  totp: boolean;
  recoveryCodesLeft: number;
  passkeys: PasskeyView[];
  /** Null: PUBLIC_URL is an IP address, so passkeys cannot be offered. */
  passkeyHost: string | null;
  requireSecondFactor: boolean;
  /** The member's role lets them change the policy (owner, admin). */
  canManagePolicy: boolean;
  /** The account requires a second factor and the member has none yet. */
  setupRequired: boolean;
  notice?: string;
  errors?: PageErrors;
  scripts?: readonly string[];
}

/** totp-setup.eta: the secret and its QR code, and the confirmation form. */
export interface TotpSetupPageView {
  setup: TotpSetup;
  errors?: PageErrors;
}

/** recovery-codes.eta: the codes, shown this once. */
export interface RecoveryCodesPageView {
  codes: string[];
}

export function canManagePolicy(role: Role): boolean {
  return roleHas(role, 'security.manage');
}

// The account page's parts that are not routes: its notices, the key roles and expiry
// choices it offers, and the views its templates are given.
import type { AccountApiKey } from '../../accounts/account-api-key.entity.js';
import {
  KEY_ROLES,
  roleAtMost,
  type KeyRole,
  type Role,
} from '../../auth/permissions.js';
import type { ErasureService } from '../../erasure/erasure.service.js';
import type { PageErrors } from '../page-errors.js';
import { plural } from '../view-helpers.js';

export const NOTICES: Record<string, string> = {
  'key-revoked':
    'The key was revoked: requests using it are refused from now on.',
  'password-changed':
    'Your password was changed. Every other session of your account was logged out.',
  'verification-sent':
    'A new verification link is on its way to your address. Open it and select Verify.',
  'verification-verified': 'Your email address is verified.',
  'assign-mail-on': 'You will be mailed when someone assigns you a submission.',
  'assign-mail-off':
    'You will not be mailed when someone assigns you a submission.',
  'verification-mail-off':
    'Email is off on this server (SMTP_URL and MAIL_FROM are not set): no link can be sent.',
  'verification-unmailable':
    'Your account’s address cannot be mailed. Sign up again with an address that can receive mail.',
};

/** "Erased 3 submissions from 2 forms." after an erasure (the counts come back in the query). */
export function erasureNotice(
  query: Record<string, unknown>,
): string | undefined {
  const deleted = Number(query.deleted);
  const forms = Number(query.forms);
  if (![deleted, forms].every((n) => Number.isSafeInteger(n) && n >= 0)) {
    return undefined;
  }
  return `Erased ${plural(deleted, 'submission')} from ${plural(forms, 'form')}, with their notifications.`;
}

/** The roles a member may give a key they create: up to their own, never owner. */
export function keyRolesFor(role: Role): KeyRole[] {
  return KEY_ROLES.filter((keyRole) => roleAtMost(keyRole, role));
}

/** The "Expires" choices of a new key: days from now, or never. */
export const KEY_EXPIRY_CHOICES = [
  { value: 'never', label: 'Never', days: 0 },
  { value: '7', label: 'In 7 days', days: 7 },
  { value: '30', label: 'In 30 days', days: 30 },
  { value: '90', label: 'In 90 days', days: 90 },
  { value: '365', label: 'In a year', days: 365 },
] as const;

export interface AccountState {
  newKey?: { name: string; apiKey: string; readOnly: boolean };
  keyName?: string;
  expiresIn?: string;
  readOnly?: boolean;
  role?: KeyRole;
  erasureEmail?: string;
  errors?: PageErrors;
  notice?: string;
}

/** account.eta: the account's keys, and what a refused post typed. */
export interface AccountPageView extends AccountState {
  keys: AccountApiKey[];
  /** The roles the member may give a key: up to their own (an owner's keys are admins). */
  keyRoles: KeyRole[];
  role: KeyRole;
  now: Date;
  /** "Mail me when I am assigned" (the signed-in person's own setting). */
  mailOnAssign: boolean;
  expiryChoices: typeof KEY_EXPIRY_CHOICES;
  expiresIn: string;
}

/** account-erase.eta: what an erasure found and deleted. */
export interface AccountErasePageView {
  email: string;
  count: number;
  forms: Awaited<ReturnType<ErasureService['erase']>>['forms'];
}

// Who a presented key belongs to. Each kind of key is stored by the feature it belongs to
// (form keys with their form, account keys with their account), so each of those features
// provides its lookup under one of these tokens; auth depends on this interface only and
// never imports them. The composition root hands their modules to AuthModule.forRoot.
import type { ApiPrincipal } from './principal.js';

export interface KeyPrincipals {
  /** The principal whose key has this SHA-256 hash, or undefined when none has. */
  principalFor(keyHash: string): Promise<ApiPrincipal | undefined>;
}

export const FORM_KEY_PRINCIPALS = Symbol('FORM_KEY_PRINCIPALS');
export const ACCOUNT_KEY_PRINCIPALS = Symbol('ACCOUNT_KEY_PRINCIPALS');

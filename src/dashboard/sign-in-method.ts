/** How a session signed in (shown on the sessions page). */
export const SIGN_IN_METHODS = [
  'password',
  'password+totp',
  'password+passkey',
  'passkey',
  'sso',
] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

// Where a sign-in that still owes something is sent, and the routes it may reach meanwhile.
import { SetMetadata } from '@nestjs/common';

/** The second step of a password sign-in (TOTP code, recovery code or passkey). */
export const SECOND_STEP_PATH = '/dashboard/sign-in/second-step';
/** Where a member whose account requires a second factor sets one up. */
export const FACTOR_SETUP_PATH = '/dashboard/account/security?required=1';

export const DURING_FACTOR_SETUP = 'formgate:during-factor-setup';

/**
 * A signed-in route a member may reach before setting up the second factor their
 * account requires (the security page, setting a factor up, switching account, logging out).
 */
export function DuringFactorSetup(): MethodDecorator & ClassDecorator {
  return SetMetadata(DURING_FACTOR_SETUP, true);
}

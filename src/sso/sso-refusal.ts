// Every way an SSO sign-in can be refused, with the status and the sentence its page shows.
import { HttpException, HttpStatus } from '@nestjs/common';

export type SsoProblem =
  | 'state'
  | 'issuer'
  | 'audience'
  | 'nonce'
  | 'expired'
  | 'signature'
  | 'email-unverified'
  | 'foreign-domain'
  | 'domain-unverified'
  | 'no-sso-domain'
  | 'provider-refused'
  | 'provider-unreachable'
  | 'not-configured'
  | 'account-full';

const START_AGAIN = 'Start again from “Sign in with SSO”.';

const REFUSALS: Record<SsoProblem, { status: number; message: string }> = {
  state: {
    status: HttpStatus.BAD_REQUEST,
    message: `This sign-in answer does not belong to a sign-in started in this browser (its state is missing, unknown, already used or expired). ${START_AGAIN}`,
  },
  issuer: {
    status: HttpStatus.FORBIDDEN,
    message:
      'The identity provider that answered is not the issuer configured for this account, so its answer was refused. An owner or admin should check the issuer URL in the SSO settings.',
  },
  audience: {
    status: HttpStatus.FORBIDDEN,
    message:
      'The identity provider issued the ID token to another application (its audience is not this account’s client id), so it was refused. An owner or admin should check the client id in the SSO settings.',
  },
  nonce: {
    status: HttpStatus.FORBIDDEN,
    message: `The ID token does not carry the nonce of this sign-in, so it may be a replayed answer and was refused. ${START_AGAIN}`,
  },
  expired: {
    status: HttpStatus.FORBIDDEN,
    message: `The ID token from the identity provider has expired (or its time is wrong), so it was refused. ${START_AGAIN} If it happens again, the provider’s clock may be off.`,
  },
  signature: {
    status: HttpStatus.FORBIDDEN,
    message:
      'The ID token’s signature does not match the identity provider’s published keys, so it was refused.',
  },
  'email-unverified': {
    status: HttpStatus.FORBIDDEN,
    message:
      'The identity provider does not say your email address is verified (email_verified is not true), so it cannot sign you in. Verify the address at your provider, then try again.',
  },
  'foreign-domain': {
    status: HttpStatus.FORBIDDEN,
    message:
      'The identity provider signed you in with an address outside this account’s SSO domains, so it cannot sign you in to this account.',
  },
  'domain-unverified': {
    status: HttpStatus.FORBIDDEN,
    message:
      'Single sign-on for this address’s domain is not ready: its DNS TXT record has not been verified yet. Sign in with your password, or ask an owner or admin of the account to verify the domain.',
  },
  'no-sso-domain': {
    status: HttpStatus.NOT_FOUND,
    message:
      'No account uses single sign-on for this address’s domain. Sign in with your password instead.',
  },
  'provider-refused': {
    status: HttpStatus.FORBIDDEN,
    message: `The identity provider did not complete the sign-in. ${START_AGAIN}`,
  },
  'provider-unreachable': {
    status: HttpStatus.FAILED_DEPENDENCY,
    message:
      'The identity provider could not be reached, or did not answer as an OpenID provider should. Try again in a moment; if it persists, an owner or admin should check the issuer URL in the SSO settings.',
  },
  'account-full': {
    status: HttpStatus.CONFLICT,
    message:
      'The account has as many members as it may have (MAX_MEMBERS_PER_ACCOUNT), so you cannot join it through SSO. Ask an owner or admin to make room.',
  },
  'not-configured': {
    status: HttpStatus.NOT_FOUND,
    message:
      'This account has no single sign-on set up any more. Sign in with your password instead.',
  },
};

/** A refused SSO sign-in: the dashboard's error page shows its sentence with its status. */
export class SsoRefusalException extends HttpException {
  constructor(
    readonly problem: SsoProblem,
    detail?: string,
  ) {
    const { status, message } = REFUSALS[problem];
    super(detail ? `${message} (${detail})` : message, status);
  }

  /** The proven address the refusal is for, when known (its sign-in.failed event). */
  email?: string;

  of(email: string): this {
    this.email ??= email;
    return this;
  }
}

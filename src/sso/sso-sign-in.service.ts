import { ConflictException, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import {
  AccountsService,
  normalizeEmail,
} from '../accounts/accounts.service.js';
import { MembershipsService } from '../accounts/memberships.service.js';
import { memberActor } from '../audit/audit-actor.js';
import { AuditLogService } from '../audit/audit-log.service.js';
import type { User } from '../accounts/user.entity.js';
import { SecretBoxService } from '../auth/secret-box.service.js';
import { isEmailAddress } from '../common/values/email-address.js';
import { AppConfig } from '../config/app-config.js';
import {
  discover,
  finishAuthorization,
  startAuthorization,
} from './oidc-client.js';
import { SsoAttemptRepository } from './sso-attempt.repository.js';
import { SsoRefusalException } from './sso-refusal.js';
import { SsoSettingsService } from './sso-settings.service.js';
import {
  domainOfEmail,
  type SsoJoinRole,
  type SsoRoute,
} from './sso-settings.types.js';

/** How long a started SSO sign-in waits for the provider's answer. */
export const SSO_ATTEMPT_TTL_MS = 10 * 60 * 1000;

export interface SsoStarted {
  /** Where to send the browser: the provider's authorization endpoint. */
  url: string;
  /** For the browser's cookie: the callback must bring the same one back. */
  state: string;
}

export interface SsoSignedIn {
  userId: string;
  email: string;
  accountId: string;
  /** The person joined the account just now (JIT). */
  joined: boolean;
}

function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

function sameString(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * An SSO sign-in from start to callback (docs/security.md#single-sign-on-oidc): the
 * account found by the address's verified SSO domain, the attempt kept server-side, the
 * ID token checked, and the person signed in — joining with the account's default role
 * the first time.
 */
@Injectable()
export class SsoSignInService {
  constructor(
    private readonly settings: SsoSettingsService,
    private readonly attempts: SsoAttemptRepository,
    private readonly box: SecretBoxService,
    private readonly accounts: AccountsService,
    private readonly memberships: MembershipsService,
    private readonly config: AppConfig,
    private readonly auditLog: AuditLogService,
  ) {}

  /** Finds the account for the address and starts an authorization at its provider. */
  async start(email: string): Promise<SsoStarted> {
    const domain = domainOfEmail(normalizeEmail(email));
    const claims = domain ? await this.settings.claimsOf(domain) : [];
    const verified = claims.find((claim) => claim.status === 'verified');
    if (!verified) {
      throw new SsoRefusalException(
        claims.length > 0 ? 'domain-unverified' : 'no-sso-domain',
      );
    }
    const route = await this.settings.routeOf(verified.accountId);
    if (!route) throw new SsoRefusalException('no-sso-domain');
    const config = await discover(route);
    const started = await startAuthorization(
      config,
      this.settings.callbackUrl(),
    );
    const now = new Date();
    // Housekeeping: attempts nobody finished go when someone starts one.
    await this.attempts.keep(
      {
        stateHash: sha256(started.state),
        accountId: route.accountId,
        nonce: started.nonce,
        codeVerifierEncrypted: this.box.encrypt(started.codeVerifier),
        issuerUrl: route.issuerUrl,
        createdAt: now,
        expiresAt: new Date(now.getTime() + SSO_ATTEMPT_TTL_MS),
      },
      now,
    );
    return { url: started.url.href, state: started.state };
  }

  /**
   * The provider's answer: `query` is the callback's raw query string, `cookieState` the
   * state this browser was given at the start. The attempt is used once, whatever follows.
   */
  async finish(
    query: string,
    cookieState: string | undefined,
  ): Promise<SsoSignedIn> {
    const state = new URLSearchParams(query).get('state');
    if (
      !state ||
      !cookieState ||
      state.length > 200 ||
      !sameString(state, cookieState)
    ) {
      throw new SsoRefusalException('state');
    }
    const attempt = await this.attempts.find(sha256(state));
    // Deleting first makes the attempt single-use even when two callbacks race.
    const taken = attempt ? await this.attempts.take(attempt.stateHash) : false;
    if (!attempt || !taken || attempt.expiresAt < new Date()) {
      throw new SsoRefusalException('state');
    }
    const route = await this.settings.routeOf(attempt.accountId);
    if (!route || route.issuerUrl !== attempt.issuerUrl) {
      throw new SsoRefusalException('not-configured');
    }
    const config = await discover(route);
    const identity = await finishAuthorization(
      config,
      new URL(`${this.settings.callbackUrl()}?${query}`),
      {
        state,
        nonce: attempt.nonce,
        codeVerifier: this.box.decrypt(attempt.codeVerifierEncrypted),
      },
    );
    if (!identity.emailVerified) {
      throw new SsoRefusalException('email-unverified');
    }
    const email = normalizeEmail(identity.email);
    if (!isEmailAddress(email)) {
      throw new SsoRefusalException('email-unverified');
    }
    if (!route.domains.includes(domainOfEmail(email))) {
      throw new SsoRefusalException('foreign-domain').of(email);
    }
    try {
      return await this.signIn(route, email);
    } catch (error) {
      throw error instanceof SsoRefusalException ? error.of(email) : error;
    }
  }

  /** The user of a proven address, made the first time, and a member of the account. */
  private async signIn(route: SsoRoute, email: string): Promise<SsoSignedIn> {
    let user = await this.accounts.findUserByEmail(email);
    if (!user) {
      try {
        user = await this.accounts.createUser(email, null, { verified: true });
      } catch (error) {
        // Another sign-in of the same person made the user a moment ago.
        if (!(error instanceof ConflictException)) throw error;
        user = await this.accounts.findUserByEmail(email);
        if (!user) throw error;
      }
    }
    const member = await this.memberships.membershipOf(
      user.id,
      route.accountId,
    );
    if (!member) await this.join(route.accountId, user, route.defaultRole);
    return {
      userId: user.id,
      email: user.email,
      accountId: route.accountId,
      joined: !member,
    };
  }

  /**
   * A person joins the account through SSO with its default role (member joined by SSO),
   * within MAX_MEMBERS_PER_ACCOUNT (joins racing each other may pass it together).
   */
  async join(accountId: string, user: User, role: SsoJoinRole): Promise<void> {
    const max = this.config.maxMembersPerAccount;
    if ((await this.memberships.countMembers(accountId)) >= max) {
      throw new SsoRefusalException('account-full');
    }
    await this.auditLog.transaction(async (manager) => {
      await this.memberships.put(accountId, user.id, role, manager);
      await this.auditLog.record(manager, {
        accountId,
        actor: memberActor(user.id, user.email),
        action: 'member.joined',
        target: { type: 'member', id: user.id },
        details: { email: user.email, role, via: 'sso' },
      });
    });
  }

  /**
   * Whether a signed-in session may not work in this account: it did not sign in through
   * SSO, the member is not an owner, and the account requires SSO for their address
   * (a password session from before "require SSO", or from another account of theirs).
   */
  async sessionRefused(
    method: string,
    membership: { accountId: string; role: string },
    email: string,
  ): Promise<boolean> {
    if (method === 'sso' || membership.role === 'owner') return false;
    return this.settings.requiresSso(membership.accountId, email);
  }

  /**
   * Whether a password (or passkey) sign-in of this user is refused: they are a member,
   * but not an owner, of an account that requires SSO for their address's domain.
   * Owners keep their password as the way back in.
   */
  async passwordRefused(user: Pick<User, 'id' | 'email'>): Promise<boolean> {
    const requiring = await this.settings.accountsRequiringSso(user.email);
    for (const accountId of requiring) {
      const member = await this.memberships.membershipOf(user.id, accountId);
      if (member && member.role !== 'owner') return true;
    }
    return false;
  }
}

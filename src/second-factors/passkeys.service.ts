import { Injectable, NotFoundException } from '@nestjs/common';
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransportFuture,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { createHash } from 'node:crypto';
import { newUlid } from '../common/values/ulid.js';
import { AppConfig } from '../config/app-config.js';
import { SYSTEM_ACTOR } from '../audit/audit-actor.js';
import {
  FactorAuditRecorder,
  type FactorActor,
} from './factor-audit-recorder.js';
import type { Passkey } from './passkey.entity.js';
import { PasskeyRepository } from './passkey.repository.js';
import type { ChallengePurpose } from './webauthn-challenge.entity.js';
import { WebauthnChallengeRepository } from './webauthn-challenge.repository.js';
import {
  challengeOf,
  relyingPartyOf,
  type RelyingParty,
} from './webauthn-party.js';

/** How long a browser has to answer a challenge. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
export const MAX_PASSKEYS_PER_USER = 20;

/** A passkey as pages list it. */
export interface PasskeyView {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** A passkey name as typed: trimmed, 1–100 characters, else a default. */
export function passkeyName(typed: string): string {
  const name = typed.trim().slice(0, 100);
  return name || 'Passkey';
}

type WebAuthnLibrary = typeof import('@simplewebauthn/server');
let library: Promise<WebAuthnLibrary> | undefined;

/**
 * The WebAuthn library, loaded at the first passkey ceremony rather than at boot: with its
 * ASN.1 and CBOR dependencies it is some 250 modules a start need not read.
 */
function webauthn(): Promise<WebAuthnLibrary> {
  return (library ??= import('@simplewebauthn/server'));
}

/**
 * Passkeys (WebAuthn) of users: registration, sign-in with one alone (a discoverable
 * credential, user verification required), and as the second step after a password.
 * Challenges are kept server-side by their hash, and deleted when answered: single use.
 */
@Injectable()
export class PasskeysService {
  readonly party: RelyingParty | null;

  constructor(
    private readonly passkeys: PasskeyRepository,
    private readonly challenges: WebauthnChallengeRepository,
    config: AppConfig,
    private readonly audit: FactorAuditRecorder,
  ) {
    this.party = relyingPartyOf(config.publicUrl);
  }

  list(userId: string): Promise<PasskeyView[]> {
    return this.passkeys.listOf(userId);
  }

  async usersWithPasskeys(userIds: readonly string[]): Promise<Set<string>> {
    if (userIds.length === 0) return new Set();
    return new Set(await this.passkeys.usersAmong(userIds));
  }

  async registrationOptions(user: {
    id: string;
    email: string;
  }): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const party = this.requireParty();
    const existing = await this.passkeys.credentialsOf(user.id);
    const options = await (
      await webauthn()
    ).generateRegistrationOptions({
      rpName: party.name,
      rpID: party.id,
      userName: user.email,
      userID: new TextEncoder().encode(user.id),
      attestationType: 'none',
      excludeCredentials: existing.map((row) => ({
        id: row.credentialId,
        transports: transportsOf(row.transports),
      })),
      authenticatorSelection: {
        residentKey: 'required',
        userVerification: 'required',
      },
      timeout: CHALLENGE_TTL_MS,
    });
    await this.keepChallenge(options.challenge, 'register', user.id);
    return options;
  }

  /** Factor added: a verified registration becomes a passkey; null when it does not verify. */
  async register(
    userId: string,
    response: unknown,
    name: string,
    actor: FactorActor = SYSTEM_ACTOR,
  ): Promise<PasskeyView | null> {
    const party = this.requireParty();
    if (!(await this.takeChallenge(response, 'register', userId))) return null;
    if ((await this.passkeys.countOf(userId)) >= MAX_PASSKEYS_PER_USER) {
      return null;
    }
    let verified;
    try {
      verified = await (
        await webauthn()
      ).verifyRegistrationResponse({
        response: response as RegistrationResponseJSON,
        expectedChallenge: () => true, // taken above: it was ours, unused and fresh
        expectedOrigin: party.origin,
        expectedRPID: party.id,
        requireUserVerification: true,
      });
    } catch {
      return null;
    }
    if (!verified.verified) return null;
    const { credential } = verified.registrationInfo;
    const row: Passkey = {
      id: newUlid(),
      userId,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: (credential.transports ?? []).join(','),
      name: passkeyName(name),
      createdAt: new Date(),
      lastUsedAt: null,
    };
    try {
      await this.audit.recorded(
        userId,
        actor,
        'member.second_factor_added',
        { kind: 'passkey', passkeyId: row.id, name: row.name },
        (manager) =>
          this.passkeys
            .in(manager)
            .insert(row)
            .then(() => true),
      );
    } catch {
      return null; // the same credential registered twice
    }
    return {
      id: row.id,
      name: row.name,
      createdAt: row.createdAt,
      lastUsedAt: null,
    };
  }

  /**
   * Options for signing in: with a passkey alone (`userId` null: any discoverable
   * credential, user verification required), or as the second step of `userId`.
   */
  async signInOptions(
    userId: string | null,
  ): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const party = this.requireParty();
    const allow = userId ? await this.passkeys.credentialsOf(userId) : [];
    const options = await (
      await webauthn()
    ).generateAuthenticationOptions({
      rpID: party.id,
      userVerification: userId ? 'preferred' : 'required',
      allowCredentials: allow.map((row) => ({
        id: row.credentialId,
        transports: transportsOf(row.transports),
      })),
      timeout: CHALLENGE_TTL_MS,
    });
    await this.keepChallenge(
      options.challenge,
      userId ? 'second-factor' : 'sign-in',
      userId,
    );
    return options;
  }

  /**
   * The user a passkey answer signs in (alone when `userId` is null, else as that user's
   * second step), or null when it does not verify.
   */
  async verifySignIn(
    userId: string | null,
    response: unknown,
  ): Promise<string | null> {
    const party = this.requireParty();
    const purpose = userId ? 'second-factor' : 'sign-in';
    if (!(await this.takeChallenge(response, purpose, userId))) return null;
    const credentialId = (response as { id?: unknown }).id;
    if (typeof credentialId !== 'string' || credentialId.length > 255) {
      return null;
    }
    const row = await this.passkeys.findByCredential(credentialId);
    if (!row || (userId && row.userId !== userId)) return null;
    let verified;
    try {
      verified = await (
        await webauthn()
      ).verifyAuthenticationResponse({
        response: response as AuthenticationResponseJSON,
        expectedChallenge: () => true, // taken above
        expectedOrigin: party.origin,
        expectedRPID: party.id,
        requireUserVerification: !userId,
        credential: {
          id: row.credentialId,
          publicKey: Buffer.from(row.publicKey, 'base64url'),
          counter: row.counter,
          transports: transportsOf(row.transports),
        },
      });
    } catch {
      return null;
    }
    if (!verified.verified) return null;
    await this.passkeys.recordUse(
      row.id,
      verified.authenticationInfo.newCounter,
      new Date(),
    );
    return row.userId;
  }

  async rename(userId: string, id: string, name: string): Promise<void> {
    if (!(await this.passkeys.rename(userId, id, passkeyName(name)))) {
      throw new NotFoundException('There is no such passkey.');
    }
  }

  /** Factor removed: one passkey. */
  async remove(
    userId: string,
    id: string,
    actor: FactorActor = SYSTEM_ACTOR,
  ): Promise<void> {
    const done = await this.audit.recorded(
      userId,
      actor,
      'member.second_factor_removed',
      { kind: 'passkey', passkeyId: id },
      (manager) => this.passkeys.in(manager).delete(userId, id),
    );
    if (!done) {
      throw new NotFoundException('There is no such passkey.');
    }
  }

  /** Factor removed: every passkey of the user (the operator's reset); how many went. */
  async removeAll(userId: string): Promise<number> {
    return this.passkeys.deleteAll(userId);
  }

  private requireParty(): RelyingParty {
    if (!this.party) {
      throw new NotFoundException(
        'Passkeys are not available: this install is reached by an IP address.',
      );
    }
    return this.party;
  }

  private async keepChallenge(
    challenge: string,
    purpose: ChallengePurpose,
    userId: string | null,
  ): Promise<void> {
    const now = new Date();
    await this.challenges.keep(
      {
        challengeHash: sha256(challenge),
        purpose,
        userId,
        expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
      },
      now,
    );
  }

  /** Whether the response answers a live challenge of ours for this purpose (used up now). */
  private async takeChallenge(
    response: unknown,
    purpose: ChallengePurpose,
    userId: string | null,
  ): Promise<boolean> {
    const challenge = challengeOf(response);
    if (!challenge) return false;
    const row = await this.challenges.find(sha256(challenge));
    if (!row || row.purpose !== purpose || row.userId !== userId) return false;
    return this.challenges.take(row.challengeHash, new Date());
  }
}

function transportsOf(value: string): AuthenticatorTransportFuture[] {
  return value ? (value.split(',') as AuthenticatorTransportFuture[]) : [];
}

import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransportFuture,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { createHash } from 'node:crypto';
import { LessThan, MoreThan, Repository } from 'typeorm';
import { newUlid } from '../common/values/ulid.js';
import { AppConfig } from '../config/app-config.js';
import { SYSTEM_ACTOR } from '../audit/audit-actor.js';
import {
  FactorAuditRecorder,
  type FactorActor,
} from './factor-audit-recorder.js';
import { Passkey } from './passkey.entity.js';
import {
  type ChallengePurpose,
  WebauthnChallenge,
} from './webauthn-challenge.entity.js';
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
    @InjectRepository(Passkey) private readonly passkeys: Repository<Passkey>,
    @InjectRepository(WebauthnChallenge)
    private readonly challenges: Repository<WebauthnChallenge>,
    config: AppConfig,
    private readonly audit: FactorAuditRecorder,
  ) {
    this.party = relyingPartyOf(config.publicUrl);
  }

  list(userId: string): Promise<PasskeyView[]> {
    return this.passkeys.find({
      select: { id: true, name: true, createdAt: true, lastUsedAt: true },
      where: { userId },
      order: { createdAt: 'ASC' },
    });
  }

  async usersWithPasskeys(userIds: readonly string[]): Promise<Set<string>> {
    if (userIds.length === 0) return new Set();
    const rows = await this.passkeys
      .createQueryBuilder('p')
      .select('DISTINCT p.userId', 'userId')
      .where('p.userId IN (:...ids)', { ids: [...userIds] })
      .getRawMany<{ userId: string }>();
    return new Set(rows.map((row) => row.userId));
  }

  async registrationOptions(user: {
    id: string;
    email: string;
  }): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const party = this.requireParty();
    const existing = await this.passkeys.find({
      select: { credentialId: true, transports: true },
      where: { userId: user.id },
    });
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
    if ((await this.passkeys.countBy({ userId })) >= MAX_PASSKEYS_PER_USER) {
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
        (manager) => manager.insert(Passkey, row).then(() => true),
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
    const allow = userId
      ? await this.passkeys.find({
          select: { credentialId: true, transports: true },
          where: { userId },
        })
      : [];
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
    const row = await this.passkeys.findOneBy({ credentialId });
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
    await this.passkeys.update(
      { id: row.id },
      {
        counter: verified.authenticationInfo.newCounter,
        lastUsedAt: new Date(),
      },
    );
    return row.userId;
  }

  async rename(userId: string, id: string, name: string): Promise<void> {
    const done = await this.passkeys.update(
      { id, userId },
      { name: passkeyName(name) },
    );
    if (!done.affected) {
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
      async (manager) =>
        Boolean((await manager.delete(Passkey, { id, userId })).affected),
    );
    if (!done) {
      throw new NotFoundException('There is no such passkey.');
    }
  }

  /** Factor removed: every passkey of the user (the operator's reset); how many went. */
  async removeAll(userId: string): Promise<number> {
    const done = await this.passkeys.delete({ userId });
    return done.affected ?? 0;
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
    await this.challenges.delete({ expiresAt: LessThan(now) });
    await this.challenges.insert({
      challengeHash: sha256(challenge),
      purpose,
      userId,
      expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
    });
  }

  /** Whether the response answers a live challenge of ours for this purpose (used up now). */
  private async takeChallenge(
    response: unknown,
    purpose: ChallengePurpose,
    userId: string | null,
  ): Promise<boolean> {
    const challenge = challengeOf(response);
    if (!challenge) return false;
    const row = await this.challenges.findOneBy({
      challengeHash: sha256(challenge),
    });
    if (!row || row.purpose !== purpose || row.userId !== userId) return false;
    const taken = await this.challenges.delete({
      challengeHash: row.challengeHash,
      expiresAt: MoreThan(new Date()),
    });
    return Boolean(taken.affected);
  }
}

function transportsOf(value: string): AuthenticatorTransportFuture[] {
  return value ? (value.split(',') as AuthenticatorTransportFuture[]) : [];
}

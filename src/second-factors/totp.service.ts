import { ConflictException, Injectable } from '@nestjs/common';
import { SecretBoxService } from '../auth/secret-box.service.js';
import { newUlid } from '../common/values/ulid.js';
import { AppConfig } from '../config/app-config.js';
import { SYSTEM_ACTOR } from '../audit/audit-actor.js';
import {
  FactorAuditRecorder,
  type FactorActor,
} from './factor-audit-recorder.js';
import { RecoveryCodeRepository } from './recovery-code.repository.js';
import {
  hashRecoveryCode,
  newRecoveryCodes,
  newTotpSecret,
  sameHash,
  totpCodeStep,
  totpUri,
} from './totp.js';
import { UserTotpRepository } from './user-totp.repository.js';

/** What the set-up page shows, once: the secret, as text and as a QR code. */
export interface TotpSetup {
  secret: string;
  uri: string;
  /** An SVG image of the QR code of `uri`. */
  qrSvg: string;
}

/** What a second-step code did: signed in, or why not. */
export type CodeCheck = 'accepted' | 'wrong' | 'replayed';

/**
 * A user's TOTP authenticator and recovery codes. The secret is sealed by the secret box,
 * recovery codes are kept as SHA-256 hashes; a code is accepted once per time step (the
 * last accepted step is remembered and moved forward in one conditional update, so two
 * requests with the same code cannot both pass).
 */
@Injectable()
export class TotpService {
  constructor(
    private readonly totps: UserTotpRepository,
    private readonly codes: RecoveryCodeRepository,
    private readonly box: SecretBoxService,
    private readonly config: AppConfig,
    private readonly audit: FactorAuditRecorder,
  ) {}

  /** Whether the user has a confirmed authenticator. */
  async isOn(userId: string): Promise<boolean> {
    return this.totps.isOn(userId);
  }

  /** Users among `userIds` with a confirmed authenticator. */
  async usersWithTotp(userIds: readonly string[]): Promise<Set<string>> {
    if (userIds.length === 0) return new Set();
    return new Set(await this.totps.confirmedAmong(userIds));
  }

  /** Recovery codes not used yet. */
  unusedRecoveryCodes(userId: string): Promise<number> {
    return this.codes.unusedCount(userId);
  }

  /**
   * A new secret to set up (replacing one not confirmed yet). 409 when the user already
   * has an authenticator: it must be turned off first.
   */
  async startSetup(userId: string, label: string): Promise<TotpSetup> {
    if (await this.isOn(userId)) {
      throw new ConflictException('Two-step codes are already on.');
    }
    const secret = newTotpSecret();
    await this.totps.replaceSetup(userId, this.box.encrypt(secret), new Date());
    return this.setupOf(secret, label);
  }

  /** The set-up being confirmed, shown again after a wrong code (null when none is). */
  async pendingSetup(userId: string, label: string): Promise<TotpSetup | null> {
    const row = await this.totps.sealed(userId);
    if (!row || row.confirmedAt) return null;
    return this.setupOf(this.box.decrypt(row.secretSealed), label);
  }

  /**
   * Factor added: the code confirms the set-up; answers the 10 new recovery codes (shown
   * once), or null when the code is wrong.
   */
  async confirmSetup(
    userId: string,
    code: string,
    now = Date.now(),
    actor: FactorActor = SYSTEM_ACTOR,
  ): Promise<string[] | null> {
    const row = await this.totps.sealed(userId);
    if (!row || row.confirmedAt) return null;
    const step = totpCodeStep(this.box.decrypt(row.secretSealed), code, now);
    if (step === null) return null;
    const done = await this.audit.recorded(
      userId,
      actor,
      'member.second_factor_added',
      { kind: 'totp' },
      (manager) => this.totps.in(manager).confirm(userId, new Date(now), step),
    );
    if (!done) return null;
    return this.replaceRecoveryCodes(userId);
  }

  /** A code at sign-in (or to turn the authenticator off). */
  async checkCode(
    userId: string,
    code: string,
    now = Date.now(),
  ): Promise<CodeCheck> {
    const row = await this.totps.sealed(userId);
    if (!row?.confirmedAt) return 'wrong';
    const step = totpCodeStep(this.box.decrypt(row.secretSealed), code, now);
    if (step === null) return 'wrong';
    if (row.lastStep !== null && step <= row.lastStep) return 'replayed';
    return (await this.totps.advanceStep(userId, step))
      ? 'accepted'
      : 'replayed';
  }

  /** A recovery code at sign-in: true once per code. */
  async useRecoveryCode(userId: string, typed: string): Promise<boolean> {
    if (typed.length > 64) return false;
    const hash = hashRecoveryCode(typed);
    const unused = await this.codes.unusedOf(userId);
    // Every unused code is compared, in constant time each.
    let match: (typeof unused)[number] | undefined;
    for (const row of unused) {
      if (sameHash(row.codeHash, hash)) match = row;
    }
    if (!match) return false;
    return this.codes.use(match.id, new Date());
  }

  /** Ten new recovery codes (the old ones stop working), shown once. */
  async replaceRecoveryCodes(userId: string): Promise<string[]> {
    const codes = newRecoveryCodes();
    const now = new Date();
    await this.codes.replace(
      userId,
      codes.map((code) => ({
        id: newUlid(),
        userId,
        codeHash: hashRecoveryCode(code),
        usedAt: null,
        createdAt: now,
      })),
    );
    return codes;
  }

  /** Factor removed: the authenticator and the recovery codes go. */
  async turnOff(
    userId: string,
    actor: FactorActor = SYSTEM_ACTOR,
  ): Promise<void> {
    await this.audit.recorded(
      userId,
      actor,
      'member.second_factor_removed',
      { kind: 'totp' },
      async (manager) => {
        const totps = this.totps.in(manager);
        const on = await totps.isOn(userId);
        await totps.delete(userId);
        await this.codes.in(manager).deleteAll(userId);
        return on; // a set-up never confirmed was no factor
      },
    );
  }

  private async setupOf(secret: string, label: string): Promise<TotpSetup> {
    const issuer = `Formgate (${new URL(this.config.publicUrl).host})`;
    const uri = totpUri(secret, label, issuer);
    return {
      secret,
      uri,
      // Loaded when a set-up is shown, not at boot (with its PNG encoder, some 60 modules).
      qrSvg: await (
        await import('qrcode')
      ).default.toString(uri, { type: 'svg', margin: 1 }),
    };
  }
}

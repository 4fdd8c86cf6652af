import { Injectable } from '@nestjs/common';
import { CLI_ACTOR } from '../audit/audit-actor.js';
import {
  FactorAuditRecorder,
  type FactorActor,
} from './factor-audit-recorder.js';
import { PasskeyRepository } from './passkey.repository.js';
import { PasskeysService, type PasskeyView } from './passkeys.service.js';
import { RecoveryCodeRepository } from './recovery-code.repository.js';
import { TotpService } from './totp.service.js';
import { UserTotpRepository } from './user-totp.repository.js';

/** Which second factors a user has. */
export interface FactorsOf {
  totp: boolean;
  passkeys: PasskeyView[];
  recoveryCodesLeft: number;
}

/** What the operator's reset removed. */
export interface FactorReset {
  totp: boolean;
  recoveryCodes: number;
  passkeys: number;
}

/** A user's second factors as a whole: TOTP (with its recovery codes) and passkeys. */
@Injectable()
export class SecondFactorsService {
  constructor(
    private readonly totp: TotpService,
    private readonly passkeys: PasskeysService,
    private readonly audit: FactorAuditRecorder,
    private readonly totps: UserTotpRepository,
    private readonly codes: RecoveryCodeRepository,
    private readonly passkeyRows: PasskeyRepository,
  ) {}

  async of(userId: string): Promise<FactorsOf> {
    const [totp, passkeys, recoveryCodesLeft] = await Promise.all([
      this.totp.isOn(userId),
      this.passkeys.list(userId),
      this.totp.unusedRecoveryCodes(userId),
    ]);
    return { totp, passkeys, recoveryCodesLeft };
  }

  /** Whether the user has a second factor (TOTP or a passkey). */
  async hasFactor(userId: string): Promise<boolean> {
    const factors = await this.of(userId);
    return factors.totp || factors.passkeys.length > 0;
  }

  /** Users among `userIds` with a second factor (the members list's `twoFactor`). */
  async usersWithFactor(userIds: readonly string[]): Promise<Set<string>> {
    const [totp, passkeys] = await Promise.all([
      this.totp.usersWithTotp(userIds),
      this.passkeys.usersWithPasskeys(userIds),
    ]);
    return new Set([...totp, ...passkeys]);
  }

  /** Factor removed: every factor of the user (`users:reset-2fa`, for a locked-out owner). */
  async resetAll(
    userId: string,
    actor: FactorActor = CLI_ACTOR,
  ): Promise<FactorReset> {
    const [totp, recoveryCodes, passkeys] = await Promise.all([
      this.totp.isOn(userId),
      this.totp.unusedRecoveryCodes(userId),
      this.passkeys.list(userId).then((rows) => rows.length),
    ]);
    const kinds = [
      ...(totp ? ['totp'] : []),
      ...(passkeys > 0 ? ['passkey'] : []),
    ];
    let removed = 0;
    await this.audit.recorded(
      userId,
      actor,
      'member.second_factor_removed',
      { kind: kinds.join(','), passkeys, via: 'reset' },
      async (manager) => {
        await this.totps.in(manager).delete(userId);
        await this.codes.in(manager).deleteAll(userId);
        removed = await this.passkeyRows.in(manager).deleteAll(userId);
        return kinds.length > 0;
      },
    );
    return { totp, recoveryCodes, passkeys: removed };
  }
}

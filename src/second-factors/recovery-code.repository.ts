// Every statement on recovery_code, the hashed single-use codes of a user's authenticator.
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository, type EntityManager } from 'typeorm';
import { RecoveryCode } from './recovery-code.entity.js';

@Injectable()
export class RecoveryCodeRepository {
  constructor(
    @InjectRepository(RecoveryCode)
    private readonly codes: Repository<RecoveryCode>,
  ) {}

  /** This repository working in `manager`'s transaction (a change and its audit event). */
  in(manager: EntityManager): RecoveryCodeRepository {
    return new RecoveryCodeRepository(manager.getRepository(RecoveryCode));
  }

  unusedCount(userId: string): Promise<number> {
    return this.codes.countBy({ userId, usedAt: IsNull() });
  }

  /** The user's unused codes (their hashes). */
  unusedOf(
    userId: string,
  ): Promise<Array<Pick<RecoveryCode, 'id' | 'codeHash'>>> {
    return this.codes.find({
      select: { id: true, codeHash: true },
      where: { userId, usedAt: IsNull() },
    });
  }

  /** Uses the code at `at`; false when it was used already. */
  async use(id: string, at: Date): Promise<boolean> {
    const used = await this.codes.update(
      { id, usedAt: IsNull() },
      { usedAt: at },
    );
    return Boolean(used.affected);
  }

  /** The user's codes become `rows`. */
  async replace(userId: string, rows: RecoveryCode[]): Promise<void> {
    await this.codes.delete({ userId });
    await this.codes.insert(rows);
  }

  async deleteAll(userId: string): Promise<void> {
    await this.codes.delete({ userId });
  }
}

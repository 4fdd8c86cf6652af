// Every statement on user_totp, users' authenticators: set up, confirmed, each accepted
// code's step moved forward by one conditional UPDATE (so a code passes once), turned off.
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Not, Repository, type EntityManager } from 'typeorm';
import { UserTotp } from './user-totp.entity.js';

@Injectable()
export class UserTotpRepository {
  constructor(
    @InjectRepository(UserTotp) private readonly totps: Repository<UserTotp>,
  ) {}

  /** This repository working in `manager`'s transaction (a change and its audit event). */
  in(manager: EntityManager): UserTotpRepository {
    return new UserTotpRepository(manager.getRepository(UserTotp));
  }

  /** Whether the user has a confirmed authenticator. */
  isOn(userId: string): Promise<boolean> {
    return this.totps.exists({
      where: { userId, confirmedAt: Not(IsNull()) },
    });
  }

  /** The users among `userIds` with a confirmed authenticator. */
  async confirmedAmong(userIds: readonly string[]): Promise<string[]> {
    const rows = await this.totps
      .createQueryBuilder('t')
      .select('t.userId', 'userId')
      .where('t.userId IN (:...ids)', { ids: [...userIds] })
      .andWhere('t.confirmedAt IS NOT NULL')
      .getRawMany<{ userId: string }>();
    return rows.map((row) => row.userId);
  }

  /** A new set-up, not confirmed yet, in place of the user's previous one. */
  async replaceSetup(
    userId: string,
    secretSealed: string,
    at: Date,
  ): Promise<void> {
    await this.totps.delete({ userId });
    await this.totps.insert({
      userId,
      secretSealed,
      confirmedAt: null,
      lastStep: null,
      createdAt: at,
    });
  }

  /** The user's authenticator with its sealed secret. */
  sealed(userId: string): Promise<UserTotp | null> {
    return this.totps.findOne({
      select: {
        userId: true,
        secretSealed: true,
        confirmedAt: true,
        lastStep: true,
      },
      where: { userId },
    });
  }

  /** Confirms the set-up with the code of `step`; false when it was confirmed already. */
  async confirm(userId: string, at: Date, step: number): Promise<boolean> {
    const result = await this.totps.update(
      { userId, confirmedAt: IsNull() },
      { confirmedAt: at, lastStep: step },
    );
    return Boolean(result.affected);
  }

  /** Moves the last accepted step to `step`; false when it was there or past already. */
  async advanceStep(userId: string, step: number): Promise<boolean> {
    const moved = await this.totps
      .createQueryBuilder()
      .update(UserTotp)
      .set({ lastStep: step })
      .where('userId = :userId', { userId })
      .andWhere('(lastStep IS NULL OR lastStep < :step)', { step })
      .execute();
    return Boolean(moved.affected);
  }

  async delete(userId: string): Promise<void> {
    await this.totps.delete({ userId });
  }
}

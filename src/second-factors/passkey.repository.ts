// Every statement on passkey, users' WebAuthn credentials: registered, listed, used at
// sign-in (its counter), renamed and removed.
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, type EntityManager } from 'typeorm';
import { Passkey } from './passkey.entity.js';

/** A passkey as pages list it. */
export type PasskeyListing = Pick<
  Passkey,
  'id' | 'name' | 'createdAt' | 'lastUsedAt'
>;

@Injectable()
export class PasskeyRepository {
  constructor(
    @InjectRepository(Passkey) private readonly passkeys: Repository<Passkey>,
  ) {}

  /** This repository working in `manager`'s transaction (a change and its audit event). */
  in(manager: EntityManager): PasskeyRepository {
    return new PasskeyRepository(manager.getRepository(Passkey));
  }

  /** The user's passkeys, oldest first. */
  listOf(userId: string): Promise<PasskeyListing[]> {
    return this.passkeys.find({
      select: { id: true, name: true, createdAt: true, lastUsedAt: true },
      where: { userId },
      order: { createdAt: 'ASC' },
    });
  }

  /** The users among `userIds` with a passkey. */
  async usersAmong(userIds: readonly string[]): Promise<string[]> {
    const rows = await this.passkeys
      .createQueryBuilder('p')
      .select('DISTINCT p.userId', 'userId')
      .where('p.userId IN (:...ids)', { ids: [...userIds] })
      .getRawMany<{ userId: string }>();
    return rows.map((row) => row.userId);
  }

  /** The user's credentials, as a ceremony lists them. */
  credentialsOf(
    userId: string,
  ): Promise<Array<Pick<Passkey, 'credentialId' | 'transports'>>> {
    return this.passkeys.find({
      select: { credentialId: true, transports: true },
      where: { userId },
    });
  }

  countOf(userId: string): Promise<number> {
    return this.passkeys.countBy({ userId });
  }

  async insert(row: Passkey): Promise<void> {
    await this.passkeys.insert(row);
  }

  findByCredential(credentialId: string): Promise<Passkey | null> {
    return this.passkeys.findOneBy({ credentialId });
  }

  /** A sign-in used the passkey: its new counter. */
  async recordUse(id: string, counter: number, at: Date): Promise<void> {
    await this.passkeys.update({ id }, { counter, lastUsedAt: at });
  }

  /** false when the user has no such passkey. */
  async rename(userId: string, id: string, name: string): Promise<boolean> {
    const done = await this.passkeys.update({ id, userId }, { name });
    return Boolean(done.affected);
  }

  /** false when the user has no such passkey. */
  async delete(userId: string, id: string): Promise<boolean> {
    return Boolean((await this.passkeys.delete({ id, userId })).affected);
  }

  /** Deletes every passkey of the user; answers how many went. */
  async deleteAll(userId: string): Promise<number> {
    return (await this.passkeys.delete({ userId })).affected ?? 0;
  }
}

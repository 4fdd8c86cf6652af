// Every statement on the user table: sign-up and sign-in (AccountsService), the address's
// verification (notifications/email), the owners an alert goes to, what a person sets
// on their profile, and the user an invitation link makes or proves the address of
// (the members feature).
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import {
  IsNull,
  LessThanOrEqual,
  MoreThan,
  Repository,
  type EntityManager,
  type FindOperator,
} from 'typeorm';
import { Membership } from './membership.entity.js';
import { User } from './user.entity.js';

/** A user as a verification link is checked against it. */
export type VerifyingUser = Pick<
  User,
  'id' | 'email' | 'emailVerifiedAt' | 'verifyTokenExpiresAt'
>;

/** An owner an alert may go to. */
export type OwnerAddress = Pick<User, 'id' | 'email' | 'emailVerifiedAt'>;

@Injectable()
export class UserRepository {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
  ) {}

  /** This repository working in `manager`'s transaction. */
  in(manager: EntityManager): UserRepository {
    return new UserRepository(manager.getRepository(User));
  }

  /** Builds a user (timestamps are stamped on insert when absent). */
  create(values: Partial<User>): User {
    return this.users.create(values);
  }

  async insert(user: User): Promise<void> {
    await this.users.insert(user);
  }

  async delete(id: string): Promise<void> {
    await this.users.delete({ id });
  }

  existsWithEmail(email: string): Promise<boolean> {
    return this.users.existsBy({ email });
  }

  findByEmail(email: string): Promise<User | null> {
    return this.users.findOneBy({ email });
  }

  findById(id: string): Promise<User | null> {
    return this.users.findOneBy({ id });
  }

  /** The id of the user with this (lower-case) address, or null. */
  async idByEmail(email: string): Promise<string | null> {
    const user = await this.users.findOne({
      where: { email },
      select: { id: true },
    });
    return user?.id ?? null;
  }

  /** The user with this address and their password hash (a password sign-in). */
  withPasswordHash(email: string): Promise<User | null> {
    return this.users.findOne({
      where: { email },
      select: {
        id: true,
        email: true,
        passwordHash: true,
        emailVerifiedAt: true,
        createdAt: true,
        updatedAt: true,
      },
    });
  }

  async setPasswordHash(
    id: string,
    passwordHash: string | null,
    at: Date,
  ): Promise<void> {
    await this.users.update({ id }, { passwordHash, updatedAt: at });
  }

  async recordSignIn(id: string, at: Date): Promise<void> {
    await this.users.update({ id }, { lastSignInAt: at });
  }

  /** "Mail me when I am assigned", as the user set it (null: no such user). */
  async mailOnAssign(id: string): Promise<boolean | null> {
    const user = await this.users.findOne({
      where: { id },
      select: { mailOnAssign: true },
    });
    return user?.mailOnAssign ?? null;
  }

  /** What a mail to the user needs: their address, whether verified, their choice. */
  mailable(
    id: string,
  ): Promise<Pick<
    User,
    'id' | 'email' | 'emailVerifiedAt' | 'mailOnAssign'
  > | null> {
    return this.users.findOne({
      where: { id },
      select: {
        id: true,
        email: true,
        emailVerifiedAt: true,
        mailOnAssign: true,
      },
    });
  }

  async setMailOnAssign(id: string, on: boolean): Promise<void> {
    await this.users.update({ id }, { mailOnAssign: on });
  }

  /** The account's owners, by id. */
  ownersOf(accountId: string): Promise<OwnerAddress[]> {
    return this.users
      .createQueryBuilder('user')
      .innerJoin(Membership, 'membership', 'membership.userId = user.id')
      .select(['user.id', 'user.email', 'user.emailVerifiedAt'])
      .where('membership.accountId = :accountId', { accountId })
      .andWhere('membership.role = :role', { role: 'owner' })
      .orderBy('user.id', 'ASC')
      .getMany();
  }

  // ---- the address's verification ---------------------------------------------------

  /** When the user's address was verified (null: not, or no such user). */
  async emailVerifiedAt(id: string): Promise<Date | null> {
    const user = await this.users.findOne({
      where: { id },
      select: { id: true, emailVerifiedAt: true },
    });
    return user?.emailVerifiedAt ?? null;
  }

  /** What asking for a verification link reads of the user. */
  verifyMailState(
    id: string,
  ): Promise<Pick<
    User,
    'id' | 'email' | 'emailVerifiedAt' | 'verifySentAt'
  > | null> {
    return this.users.findOne({
      where: { id },
      select: {
        id: true,
        email: true,
        emailVerifiedAt: true,
        verifySentAt: true,
      },
    });
  }

  /**
   * Marks a link asked for at `now` while the address is unverified and no link was asked
   * for since `since` (one conditional UPDATE per case, so two clicks cannot both pass);
   * false when one was.
   */
  async claimVerifyMail(id: string, since: Date, now: Date): Promise<boolean> {
    const cases: FindOperator<Date>[] = [IsNull(), LessThanOrEqual(since)];
    for (const verifySentAt of cases) {
      const result = await this.users.update(
        { id, emailVerifiedAt: IsNull(), verifySentAt },
        { verifySentAt: now },
      );
      if (result.affected) return true;
    }
    return false;
  }

  async setVerifyToken(
    id: string,
    verifyTokenHash: string,
    verifyTokenExpiresAt: Date,
  ): Promise<void> {
    await this.users.update({ id }, { verifyTokenHash, verifyTokenExpiresAt });
  }

  findByVerifyToken(verifyTokenHash: string): Promise<VerifyingUser | null> {
    return this.users.findOne({
      where: { verifyTokenHash },
      select: {
        id: true,
        email: true,
        emailVerifiedAt: true,
        verifyTokenExpiresAt: true,
      },
    });
  }

  /** Verifies the address while the link is the user's and still valid; false otherwise. */
  async markVerified(
    id: string,
    verifyTokenHash: string,
    now: Date,
  ): Promise<boolean> {
    const result = await this.users.update(
      {
        id,
        verifyTokenHash,
        verifyTokenExpiresAt: MoreThan(now),
        emailVerifiedAt: IsNull(),
      },
      { emailVerifiedAt: now },
    );
    return Boolean(result.affected);
  }

  // ---- invitation links --------------------------------------------------------------

  /** A new user, verified (an invitation link proved the address). */
  async insertVerified(
    user: { id: string; email: string; passwordHash: string },
    now: Date,
  ): Promise<void> {
    await this.users.insert({
      ...user,
      emailVerifiedAt: now,
      lastSignInAt: now,
      createdAt: now,
      updatedAt: now,
    });
  }

  /** Counts the address as verified from `now` (an invitation link proved it), unless it already was. */
  async markAddressProven(id: string, now: Date): Promise<void> {
    await this.users.update(
      { id, emailVerifiedAt: IsNull() },
      { emailVerifiedAt: now },
    );
  }
}

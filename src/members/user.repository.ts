// The statements the members feature makes on the user table: whether an invited address
// has a user, and the user an invitation link makes or proves the address of.
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository, type EntityManager } from 'typeorm';
import { User } from '../accounts/user.entity.js';

@Injectable()
export class UserRepository {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
  ) {}

  /** The id of the user with this (lower-case) address, or null. */
  async idByEmail(email: string): Promise<string | null> {
    const user = await this.users.findOne({
      where: { email },
      select: { id: true },
    });
    return user?.id ?? null;
  }

  /** A new user, verified (an invitation link proved the address), in the caller's transaction. */
  async insertVerified(
    manager: EntityManager,
    user: { id: string; email: string; passwordHash: string },
    now: Date,
  ): Promise<void> {
    await manager.insert(User, {
      ...user,
      emailVerifiedAt: now,
      lastSignInAt: now,
      createdAt: now,
      updatedAt: now,
    });
  }

  /** Counts the user's address as verified from `now`, unless it already was. */
  async markVerified(
    manager: EntityManager,
    userId: string,
    now: Date,
  ): Promise<void> {
    await manager.update(
      User,
      { id: userId, emailVerifiedAt: IsNull() },
      { emailVerifiedAt: now },
    );
  }
}

// Every statement on dashboard_session: a sign-in's session, finding it by its token's
// hash, its last activity, the account it works in, and ending one, the others or all.
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, Like, MoreThan, Not, Repository } from 'typeorm';
import { DashboardSession } from './dashboard-session.entity.js';

@Injectable()
export class DashboardSessionRepository {
  constructor(
    @InjectRepository(DashboardSession)
    private readonly sessions: Repository<DashboardSession>,
  ) {}

  create(values: Partial<DashboardSession>): DashboardSession {
    return this.sessions.create(values);
  }

  async insert(session: DashboardSession): Promise<void> {
    await this.sessions.insert(session);
  }

  /** Deletes the user's sessions that expired before `now`. */
  async deleteExpired(userId: string, now: Date): Promise<void> {
    await this.sessions.delete({ userId, expiresAt: LessThan(now) });
  }

  /** The session of this token hash while it lives at `now`. */
  findLive(tokenHash: string, now: Date): Promise<DashboardSession | null> {
    return this.sessions.findOneBy({ tokenHash, expiresAt: MoreThan(now) });
  }

  /** The user's live, complete sessions, latest activity first. */
  listLive(userId: string, now: Date): Promise<DashboardSession[]> {
    return this.sessions.find({
      where: { userId, secondFactorPending: false, expiresAt: MoreThan(now) },
      order: { lastSeenAt: 'DESC', createdAt: 'DESC' },
    });
  }

  async delete(tokenHash: string): Promise<void> {
    await this.sessions.delete({ tokenHash });
  }

  /** Deletes the user's session whose token hash starts with `prefix`; false when none. */
  async deleteByPrefix(userId: string, prefix: string): Promise<boolean> {
    const done = await this.sessions.delete({
      userId,
      tokenHash: Like(`${prefix}%`),
    });
    return Boolean(done.affected);
  }

  /** Deletes every session of the user but `keepTokenHash`. */
  async deleteOthers(userId: string, keepTokenHash: string): Promise<void> {
    await this.sessions.delete({ userId, tokenHash: Not(keepTokenHash) });
  }

  async deleteAll(userId: string): Promise<void> {
    await this.sessions.delete({ userId });
  }

  async recordActivity(
    tokenHash: string,
    lastSeenAt: Date,
    ipAddress: string | null,
  ): Promise<void> {
    await this.sessions.update({ tokenHash }, { lastSeenAt, ipAddress });
  }

  async switchAccount(tokenHash: string, accountId: string): Promise<void> {
    await this.sessions.update({ tokenHash }, { accountId });
  }
}

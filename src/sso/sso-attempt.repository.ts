// Every statement on sso_attempt, the sign-ins under way: kept when one starts (the
// unfinished ones expired by then go), and taken once when the provider answers.
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, Repository } from 'typeorm';
import { SsoAttempt } from './sso-attempt.entity.js';

@Injectable()
export class SsoAttemptRepository {
  constructor(
    @InjectRepository(SsoAttempt)
    private readonly attempts: Repository<SsoAttempt>,
  ) {}

  /** Keeps a new attempt, and forgets those expired by `now`. */
  async keep(attempt: SsoAttempt, now: Date): Promise<void> {
    await this.attempts.delete({ expiresAt: LessThan(now) });
    await this.attempts.insert(attempt);
  }

  find(stateHash: string): Promise<SsoAttempt | null> {
    return this.attempts.findOneBy({ stateHash });
  }

  /** Deletes the attempt; false when another callback took it first. */
  async take(stateHash: string): Promise<boolean> {
    return Boolean((await this.attempts.delete({ stateHash })).affected);
  }
}

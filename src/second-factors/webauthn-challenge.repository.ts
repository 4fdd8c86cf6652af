// Every statement on webauthn_challenge: the challenges of passkey ceremonies, kept by
// their hash until answered (deleted then: single use) or expired.
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, MoreThan, Repository } from 'typeorm';
import { WebauthnChallenge } from './webauthn-challenge.entity.js';

@Injectable()
export class WebauthnChallengeRepository {
  constructor(
    @InjectRepository(WebauthnChallenge)
    private readonly challenges: Repository<WebauthnChallenge>,
  ) {}

  /** Keeps a new challenge, and forgets those expired by `now`. */
  async keep(challenge: WebauthnChallenge, now: Date): Promise<void> {
    await this.challenges.delete({ expiresAt: LessThan(now) });
    await this.challenges.insert(challenge);
  }

  find(challengeHash: string): Promise<WebauthnChallenge | null> {
    return this.challenges.findOneBy({ challengeHash });
  }

  /** Uses the challenge up while it lives at `now`; false when it was gone. */
  async take(challengeHash: string, now: Date): Promise<boolean> {
    const taken = await this.challenges.delete({
      challengeHash,
      expiresAt: MoreThan(now),
    });
    return Boolean(taken.affected);
  }
}

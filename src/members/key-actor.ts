// The actor of a members API request: the account key that calls, with its role and name.
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AccountApiKey } from '../accounts/account-api-key.entity.js';
import type { ApiPrincipal } from '../auth/principal.js';
import type { MemberActor } from './member-actor.js';

@Injectable()
export class KeyActors {
  constructor(
    @InjectRepository(AccountApiKey)
    private readonly keys: Repository<AccountApiKey>,
  ) {}

  /** The actor for `principal` (an account key: the routes accept no other). */
  async of(principal: ApiPrincipal): Promise<MemberActor> {
    if (principal.kind !== 'account') {
      throw new Error('The members API is for account keys only');
    }
    const key = await this.keys.findOne({
      where: { id: principal.keyId },
      select: { id: true, name: true },
    });
    return {
      kind: 'key',
      accountId: principal.accountId,
      role: principal.role,
      userId: null,
      label: key?.name ?? principal.keyId,
      by: principal,
    };
  }
}

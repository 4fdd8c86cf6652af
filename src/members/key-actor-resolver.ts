// The actor of a members API request: the account key that calls, with its role and name.
import { Injectable } from '@nestjs/common';
import type { ApiPrincipal } from '../auth/principal.js';
import { AccountApiKeyRepository } from '../accounts/account-api-key.repository.js';
import type { MemberActor } from './member-actor.js';

@Injectable()
export class KeyActorResolver {
  constructor(private readonly keys: AccountApiKeyRepository) {}

  /** The actor for `principal` (an account key: the routes accept no other). */
  async of(principal: ApiPrincipal): Promise<MemberActor> {
    if (principal.kind !== 'account') {
      throw new Error('The members API is for account keys only');
    }
    const name = await this.keys.nameOf(principal.keyId);
    return {
      kind: 'key',
      accountId: principal.accountId,
      role: principal.role,
      userId: null,
      label: name ?? principal.keyId,
      by: principal,
    };
  }
}

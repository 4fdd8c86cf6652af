// The statement the members feature makes on the account_api_key table: a key's name, as
// invitations made with the key say who sent them.
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AccountApiKey } from '../accounts/account-api-key.entity.js';

@Injectable()
export class AccountApiKeyRepository {
  constructor(
    @InjectRepository(AccountApiKey)
    private readonly keys: Repository<AccountApiKey>,
  ) {}

  /** The key's name, or null when there is no such key. */
  async nameOf(keyId: string): Promise<string | null> {
    const key = await this.keys.findOne({
      where: { id: keyId },
      select: { id: true, name: true },
    });
    return key?.name ?? null;
  }
}

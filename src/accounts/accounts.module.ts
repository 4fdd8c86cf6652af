import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ACCOUNT_KEY_PRINCIPALS } from '../auth/key-principals.js';
import { AccountApiKey } from './account-api-key.entity.js';
import { AccountKeyResolver } from './account-key-resolver.js';
import { Account } from './account.entity.js';
import { AccountsService } from './accounts.service.js';
import { Membership } from './membership.entity.js';
import { MembershipsService } from './memberships.service.js';
import { User } from './user.entity.js';

@Module({
  imports: [
    TypeOrmModule.forFeature([Account, User, Membership, AccountApiKey]),
  ],
  providers: [
    AccountsService,
    MembershipsService,
    { provide: ACCOUNT_KEY_PRINCIPALS, useClass: AccountKeyResolver },
  ],
  exports: [AccountsService, MembershipsService, ACCOUNT_KEY_PRINCIPALS],
})
export class AccountsModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ACCOUNT_KEY_PRINCIPALS } from '../auth/key-principals.js';
import { AccountApiKey } from './account-api-key.entity.js';
import { AccountApiKeyRepository } from './account-api-key.repository.js';
import { AccountKeyPrincipals } from './account-key-principals.js';
import { Account } from './account.entity.js';
import { AccountRepository } from './account.repository.js';
import { AccountsService } from './accounts.service.js';
import { Membership } from './membership.entity.js';
import { MembershipRepository } from './membership.repository.js';
import { MembershipsService } from './memberships.service.js';
import { User } from './user.entity.js';
import { UserRepository } from './user.repository.js';

/** The repositories of the accounts tables, for the features that read them. */
const REPOSITORIES = [
  AccountRepository,
  AccountApiKeyRepository,
  MembershipRepository,
  UserRepository,
];

@Module({
  imports: [
    TypeOrmModule.forFeature([Account, User, Membership, AccountApiKey]),
  ],
  providers: [
    ...REPOSITORIES,
    AccountsService,
    MembershipsService,
    { provide: ACCOUNT_KEY_PRINCIPALS, useClass: AccountKeyPrincipals },
  ],
  exports: [
    ...REPOSITORIES,
    AccountsService,
    MembershipsService,
    ACCOUNT_KEY_PRINCIPALS,
  ],
})
export class AccountsModule {}

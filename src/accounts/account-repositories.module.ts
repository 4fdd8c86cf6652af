import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountApiKey } from './account-api-key.entity.js';
import { AccountApiKeyRepository } from './account-api-key.repository.js';
import { Account } from './account.entity.js';
import { AccountRepository } from './account.repository.js';
import { Membership } from './membership.entity.js';
import { MembershipRepository } from './membership.repository.js';
import { User } from './user.entity.js';
import { UserRepository } from './user.repository.js';

const REPOSITORIES = [
  AccountRepository,
  AccountApiKeyRepository,
  MembershipRepository,
  UserRepository,
];

/**
 * The owners of the accounts tables. Their own module, so the features that read users
 * and memberships (the mails, second factors, the dashboard) take the repositories
 * without the accounts services.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Account, User, Membership, AccountApiKey]),
  ],
  providers: REPOSITORIES,
  exports: REPOSITORIES,
})
export class AccountRepositoriesModule {}

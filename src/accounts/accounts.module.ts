import { Module } from '@nestjs/common';
import { ACCOUNT_KEY_PRINCIPALS } from '../auth/key-principals.js';
import { AccountKeyResolver } from './account-key-resolver.js';
import { AccountRepositoriesModule } from './account-repositories.module.js';
import { AccountsService } from './accounts.service.js';
import { MembershipsService } from './memberships.service.js';

@Module({
  imports: [AccountRepositoriesModule],
  providers: [
    AccountsService,
    MembershipsService,
    { provide: ACCOUNT_KEY_PRINCIPALS, useClass: AccountKeyResolver },
  ],
  exports: [
    AccountRepositoriesModule,
    AccountsService,
    MembershipsService,
    ACCOUNT_KEY_PRINCIPALS,
  ],
})
export class AccountsModule {}

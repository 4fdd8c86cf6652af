import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountApiKey } from './account-api-key.entity.js';
import { Account } from './account.entity.js';
import { AccountsService } from './accounts.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([Account, AccountApiKey])],
  providers: [AccountsService],
  exports: [AccountsService],
})
export class AccountsModule {}

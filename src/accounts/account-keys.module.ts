import { Module } from '@nestjs/common';
import { AccountKeysController } from './account-keys.controller.js';
import { AccountsModule } from './accounts.module.js';

/**
 * The account keys API. Apart from AccountsModule, which the operator CLI loads without
 * the API-key guard and its services.
 */
@Module({
  imports: [AccountsModule],
  controllers: [AccountKeysController],
})
export class AccountKeysModule {}

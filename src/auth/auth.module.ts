import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountApiKey } from '../accounts/account-api-key.entity.js';
import { Form } from '../forms/form.entity.js';
import { ApiKeyGuard } from './api-key.guard.js';
import { ApiKeyService } from './api-key.service.js';
import { SecretBox } from './secret-box.js';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([Form, AccountApiKey])],
  providers: [ApiKeyService, ApiKeyGuard, SecretBox],
  exports: [ApiKeyService, ApiKeyGuard, SecretBox],
})
export class AuthModule {}

import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Post,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, Principal } from '../auth/api-key-auth.decorator.js';
import { roleOf, type ApiPrincipal } from '../auth/principal.js';
import { keyExpiryOf } from './key-expiry.js';
import { WithDeadline } from '../common/http/deadline.interceptor.js';
import {
  CreateAccountKeyDocs,
  ListAccountKeysDocs,
  RevokeAccountKeyDocs,
} from './account-keys.openapi.js';
import { AccountsService } from './accounts.service.js';
import {
  AccountKeyListResponseDto,
  CreatedAccountKeyResponseDto,
} from './dto/account-key-response.dto.js';
import { CreateAccountKeyDto } from './dto/create-account-key.dto.js';
import { Requires } from '../auth/route-access.decorator.js';

/** An account's API keys, managed with an account key (never a form key). */
@ApiTags('account keys')
@ApiKeyAuth({ accountKeyOnly: true })
@WithDeadline()
@Controller('api/v1/account/keys')
export class AccountKeysController {
  constructor(private readonly accounts: AccountsService) {}

  @Get()
  @Requires('forms.read')
  @ListAccountKeysDocs()
  async list(
    @Principal() principal: ApiPrincipal,
  ): Promise<AccountKeyListResponseDto> {
    const keys = await this.accounts.listActiveApiKeys(principal.accountId);
    return { data: keys.map((key) => this.accounts.describeKey(key)) };
  }

  @Post()
  @Requires('keys.manage')
  @HttpCode(HttpStatus.CREATED)
  @CreateAccountKeyDocs()
  create(
    @Principal() principal: ApiPrincipal,
    @Body() body: CreateAccountKeyDto,
  ): Promise<CreatedAccountKeyResponseDto> {
    return this.accounts.createApiKeyFor(
      principal.accountId,
      {
        keyId: principal.kind === 'account' ? principal.keyId : null,
        role: roleOf(principal),
        by: principal,
      },
      body,
    );
  }

  @Delete(':keyId')
  @Requires('keys.manage')
  @HttpCode(HttpStatus.NO_CONTENT)
  @RevokeAccountKeyDocs()
  revoke(
    @Principal() principal: ApiPrincipal,
    @Param('keyId') keyId: string,
  ): Promise<void> {
    return this.accounts.revokeApiKey(
      principal.accountId,
      keyId,
      keyExpiryOf(principal),
      principal,
    );
  }
}

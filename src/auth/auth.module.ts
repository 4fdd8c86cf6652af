import { DynamicModule, Module, type ModuleMetadata } from '@nestjs/common';
import { AccountKeyGuard, ApiKeyGuard } from './api-key.guard.js';
import { ApiKeyService } from './api-key.service.js';
import { SecretBoxService } from './secret-box.service.js';

/**
 * The API-key guard and the secret box, for every module (global). The keys themselves are
 * stored by the features they belong to, which depend on auth: `keyOwners` are the modules
 * that provide FORM_KEY_PRINCIPALS and ACCOUNT_KEY_PRINCIPALS (see key-principals.ts).
 */
@Module({})
export class AuthModule {
  static forRoot(
    keyOwners: NonNullable<ModuleMetadata['imports']>,
  ): DynamicModule {
    return {
      module: AuthModule,
      global: true,
      imports: keyOwners,
      providers: [
        ApiKeyService,
        ApiKeyGuard,
        AccountKeyGuard,
        SecretBoxService,
      ],
      exports: [ApiKeyService, ApiKeyGuard, AccountKeyGuard, SecretBoxService],
    };
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { apiKeyKind, hashApiKey } from './api-keys.js';
import {
  ACCOUNT_KEY_PRINCIPALS,
  FORM_KEY_PRINCIPALS,
  type KeyPrincipals,
} from './key-principals.js';
import type { ApiPrincipal } from './principal.js';

@Injectable()
export class ApiKeyService {
  constructor(
    @Inject(FORM_KEY_PRINCIPALS) private readonly formKeys: KeyPrincipals,
    @Inject(ACCOUNT_KEY_PRINCIPALS)
    private readonly accountKeys: KeyPrincipals,
  ) {}

  /** Resolves a presented key to its principal by hash; undefined when it matches nothing. */
  async authenticate(key: string): Promise<ApiPrincipal | undefined> {
    const kind = apiKeyKind(key);
    if (kind === undefined || key.length > 200) return undefined;
    const keys = kind === 'form' ? this.formKeys : this.accountKeys;
    return keys.principalFor(hashApiKey(key));
  }
}

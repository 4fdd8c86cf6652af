// Every statement on sso_settings, an account's OpenID provider (its client secret sealed
// by the secret box) and whether it requires SSO.
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, type EntityManager } from 'typeorm';
import { SsoSettings } from './sso-settings.entity.js';

/** What saving the settings writes. */
export type SsoSettingsValues = Partial<
  Pick<
    SsoSettings,
    | 'issuerUrl'
    | 'clientId'
    | 'defaultRole'
    | 'requireSso'
    | 'clientSecretEncrypted'
  >
>;

@Injectable()
export class SsoSettingsRepository {
  constructor(
    @InjectRepository(SsoSettings)
    private readonly settings: Repository<SsoSettings>,
  ) {}

  /** This repository working in `manager`'s transaction (a change and its audit event). */
  in(manager: EntityManager): SsoSettingsRepository {
    return new SsoSettingsRepository(manager.getRepository(SsoSettings));
  }

  /** The settings as the settings page and a save read them. */
  find(accountId: string): Promise<SsoSettings | null> {
    return this.settings.findOne({
      where: { accountId },
      select: {
        accountId: true,
        issuerUrl: true,
        clientId: true,
        clientSecretEncrypted: true,
        defaultRole: true,
        requireSso: true,
      },
    });
  }

  /** What a sign-in needs of the settings. */
  routeOf(accountId: string): Promise<SsoSettings | null> {
    return this.settings.findOne({
      where: { accountId },
      select: {
        accountId: true,
        issuerUrl: true,
        clientId: true,
        clientSecretEncrypted: true,
        defaultRole: true,
      },
    });
  }

  requiresSso(accountId: string): Promise<boolean> {
    return this.settings.existsBy({ accountId, requireSso: true });
  }

  async update(accountId: string, values: SsoSettingsValues): Promise<void> {
    await this.settings.update({ accountId }, values);
  }

  async insert(
    values: SsoSettingsValues & { accountId: string },
  ): Promise<void> {
    await this.settings.insert(this.settings.create(values));
  }

  /** false when there were none. */
  async delete(accountId: string): Promise<boolean> {
    return Boolean((await this.settings.delete({ accountId })).affected);
  }
}

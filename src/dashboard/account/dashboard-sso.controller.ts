import {
  Body,
  Controller,
  Get,
  Param,
  Post,
  Query,
  Res,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Requires } from '../../auth/route-access.decorator.js';
import { WithDeadline } from '../../common/http/deadline.interceptor.js';
import { ValidationFailedException } from '../../common/errors/errors.js';
import { ownEntry } from '../../common/values/own-entry.js';
import { SsoSettingsService } from '../../sso/sso-settings.service.js';
import {
  SSO_JOIN_ROLES,
  type SsoSettingsInput,
  type SsoSettingsView,
} from '../../sso/sso-settings.types.js';
import {
  Dashboard,
  memberPrincipal,
  type DashboardContext,
} from '../dashboard-context.js';
import { DashboardExceptionFilter } from '../dashboard-exception.filter.js';
import { isChecked, textOf } from '../form-body.js';
import { PageErrors, refusalOf, sentence } from '../page-errors.js';
import { SignedInGuard } from '../session/dashboard.guards.js';

const NOTICES: Record<string, string> = {
  saved: 'The single sign-on settings were saved.',
  removed:
    'Single sign-on is off: members sign in with their password again. The domains stay proven.',
  'domain-added':
    'The domain was added. It is not an SSO domain until it is verified: publish its TXT record below, then select Verify.',
  'domain-verified':
    'The domain is verified: addresses in it sign in with SSO.',
  'domain-not-verified':
    'The domain is not verified yet: see the reason beside it, and verify again once the record is published.',
  'domain-removed': 'The domain was removed: it no longer routes sign-ins.',
};

/** account-sso.eta. */
export interface SsoPageView {
  sso: SsoSettingsView;
  roles: readonly string[];
  /** What was typed when a save is refused (the secret never comes back). */
  form: Omit<SsoSettingsInput, 'clientSecret'>;
  domainInput?: string;
  notice?: string;
  errors?: PageErrors;
}

/** Which input a refusal of the settings is about. */
function fieldOf(message: string): string | undefined {
  if (message.startsWith('Issuer')) return 'issuerUrl';
  if (message.startsWith('Client id')) return 'clientId';
  if (message.startsWith('Client secret')) return 'clientSecret';
  if (message.startsWith('Role')) return 'defaultRole';
  if (message.startsWith('Require')) return 'requireSso';
  return undefined;
}

/**
 * Single sign-on settings of the account (`security.manage`: owners and admins): the
 * provider, the role new members get, "require SSO", and the SSO domains with their
 * DNS TXT proof.
 */
@ApiExcludeController()
@WithDeadline()
@Controller('dashboard/account/sso')
@UseGuards(SignedInGuard)
@UseFilters(DashboardExceptionFilter)
export class DashboardSsoController {
  constructor(private readonly sso: SsoSettingsService) {}

  @Get()
  @Requires('security.manage')
  async page(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Query('done') done?: string,
  ) {
    return this.render(context, reply, 200, {
      notice: ownEntry(NOTICES, done),
    });
  }

  @Post()
  @Requires('security.manage')
  async save(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
  ) {
    const input: SsoSettingsInput = {
      issuerUrl: textOf(body, 'issuerUrl').slice(0, 2000),
      clientId: textOf(body, 'clientId').slice(0, 2000),
      clientSecret: textOf(body, 'clientSecret').slice(0, 2000),
      defaultRole: textOf(body, 'defaultRole'),
      requireSso: isChecked(body, 'requireSso'),
    };
    try {
      await this.sso.save(context.account.id, input, memberPrincipal(context));
    } catch (error) {
      if (!(error instanceof ValidationFailedException)) throw error;
      const errors = new PageErrors();
      for (const message of error.errors) {
        errors.add(sentence(message), fieldOf(message));
      }
      const { clientSecret: _secret, ...form } = input;
      return this.render(context, reply, 400, { errors, form });
    }
    return reply.redirect('/dashboard/account/sso?done=saved', 303);
  }

  @Post('remove')
  @Requires('security.manage')
  async remove(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
  ) {
    await this.sso.remove(context.account.id, memberPrincipal(context));
    return reply.redirect('/dashboard/account/sso?done=removed', 303);
  }

  @Post('domains')
  @Requires('security.manage')
  async addDomain(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
  ) {
    const domain = textOf(body, 'domain').slice(0, 300);
    try {
      await this.sso.addDomain(
        context.account.id,
        domain,
        memberPrincipal(context),
      );
    } catch (error) {
      const { status, messages } = refusalOf(error);
      const errors = new PageErrors();
      for (const message of messages) errors.add(sentence(message), 'domain');
      return this.render(context, reply, status, {
        errors,
        domainInput: domain,
      });
    }
    return reply.redirect('/dashboard/account/sso?done=domain-added', 303);
  }

  @Post('domains/:id/verify')
  @Requires('security.manage')
  async verifyDomain(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
  ) {
    const row = await this.sso.verifyDomain(
      context.account.id,
      id,
      memberPrincipal(context),
    );
    const done =
      row.status === 'verified' ? 'domain-verified' : 'domain-not-verified';
    return reply.redirect(`/dashboard/account/sso?done=${done}`, 303);
  }

  @Post('domains/:id/remove')
  @Requires('security.manage')
  async removeDomain(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
  ) {
    await this.sso.removeDomain(
      context.account.id,
      id,
      memberPrincipal(context),
    );
    return reply.redirect('/dashboard/account/sso?done=domain-removed', 303);
  }

  private async render(
    context: DashboardContext,
    reply: FastifyReply,
    status: number,
    extra: Partial<SsoPageView>,
  ) {
    const sso = await this.sso.view(context.account.id);
    return reply.status(status).view('account-sso', {
      sso,
      roles: SSO_JOIN_ROLES,
      form: {
        issuerUrl: sso.issuerUrl,
        clientId: sso.clientId,
        defaultRole: sso.defaultRole,
        requireSso: sso.requireSso,
      },
      ...extra,
    } satisfies SsoPageView);
  }
}

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
import type { ApiPrincipal } from '../auth/principal.js';
import { Requires } from '../auth/route-access.decorator.js';
import { WithDeadline } from '../common/http/deadline.interceptor.js';
import { CreateInvitationDto } from './dto/create-invitation.dto.js';
import {
  InvitationListResponseDto,
  InvitationResponseDto,
} from './dto/invitation-response.dto.js';
import {
  CreateInvitationDocs,
  ListInvitationsDocs,
  RevokeInvitationDocs,
} from './invitations.openapi.js';
import {
  InvitationsService,
  type InvitationView,
} from './invitations.service.js';
import { KeyActorResolver } from './key-actor-resolver.js';

/** Invitations to join the key's account (docs/teams.md). */
@ApiTags('members')
@ApiKeyAuth({ accountKeyOnly: true })
@WithDeadline()
@Controller('api/v1/account/invitations')
export class InvitationsController {
  constructor(
    private readonly invitations: InvitationsService,
    private readonly actors: KeyActorResolver,
  ) {}

  @Get()
  @Requires('forms.read')
  @ListInvitationsDocs()
  async list(
    @Principal() principal: ApiPrincipal,
  ): Promise<InvitationListResponseDto> {
    const pending = await this.invitations.listPending(principal.accountId);
    return { data: pending.map(describeInvitation) };
  }

  @Post()
  @HttpCode(HttpStatus.CREATED)
  @Requires('members.manage')
  @CreateInvitationDocs()
  async create(
    @Principal() principal: ApiPrincipal,
    @Body() body: CreateInvitationDto,
  ): Promise<InvitationResponseDto> {
    const actor = await this.actors.of(principal);
    return describeInvitation(await this.invitations.invite(actor, body));
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @Requires('members.manage')
  @RevokeInvitationDocs()
  async revoke(
    @Principal() principal: ApiPrincipal,
    @Param('id') id: string,
  ): Promise<void> {
    await this.invitations.revoke(await this.actors.of(principal), id);
  }
}

/** The one place an invitation becomes what the API shows. */
export function describeInvitation(
  invitation: InvitationView,
): InvitationResponseDto {
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    expiresAt: invitation.expiresAt.toISOString(),
    createdAt: invitation.createdAt.toISOString(),
    invitedBy: invitation.invitedBy,
  };
}

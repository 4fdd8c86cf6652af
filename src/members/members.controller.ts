import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Patch,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, Principal } from '../auth/api-key-auth.decorator.js';
import type { ApiPrincipal } from '../auth/principal.js';
import { Requires } from '../auth/route-access.decorator.js';
import { WithDeadline } from '../common/http/deadline.interceptor.js';
import {
  MemberListResponseDto,
  MemberResponseDto,
} from './dto/member-response.dto.js';
import { UpdateMemberDto } from './dto/update-member.dto.js';
import { KeyActorResolver } from './key-actor-resolver.js';
import {
  ListMembersDocs,
  RemoveMemberDocs,
  UpdateMemberDocs,
} from './members.openapi.js';
import { MembersService, type MemberView } from './members.service.js';

/** The members of the key's account (docs/teams.md). */
@ApiTags('members')
@ApiKeyAuth({ accountKeyOnly: true })
@WithDeadline()
@Controller('api/v1/account/members')
export class MembersController {
  constructor(
    private readonly members: MembersService,
    private readonly actors: KeyActorResolver,
  ) {}

  @Get()
  @Requires('forms.read')
  @ListMembersDocs()
  async list(
    @Principal() principal: ApiPrincipal,
  ): Promise<MemberListResponseDto> {
    const members = await this.members.list(principal.accountId);
    return { data: members.map(describeMember) };
  }

  @Patch(':userId')
  @Requires('members.manage')
  @UpdateMemberDocs()
  async update(
    @Principal() principal: ApiPrincipal,
    @Param('userId') userId: string,
    @Body() body: UpdateMemberDto,
  ): Promise<MemberResponseDto> {
    const actor = await this.actors.of(principal);
    return describeMember(
      await this.members.changeRole(actor, userId, body.role),
    );
  }

  @Delete(':userId')
  @HttpCode(HttpStatus.NO_CONTENT)
  @Requires('members.manage')
  @RemoveMemberDocs()
  async remove(
    @Principal() principal: ApiPrincipal,
    @Param('userId') userId: string,
  ): Promise<void> {
    await this.members.remove(await this.actors.of(principal), userId);
  }
}

/** The one place a member becomes what the API shows. */
export function describeMember(member: MemberView): MemberResponseDto {
  return {
    userId: member.userId,
    email: member.email,
    role: member.role,
    twoFactor: member.twoFactor,
    createdAt: member.createdAt.toISOString(),
    lastSignInAt: member.lastSignInAt?.toISOString() ?? null,
  };
}

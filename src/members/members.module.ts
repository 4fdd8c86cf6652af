import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountRepositoriesModule } from '../accounts/account-repositories.module.js';
import { AccountsModule } from '../accounts/accounts.module.js';
import { Invitation } from '../accounts/invitation.entity.js';
import { SecondFactorsModule } from '../second-factors/second-factors.module.js';
import { InvitationLinksService } from './invitation-links.service.js';
import { InvitationsController } from './invitations.controller.js';
import { InvitationsService } from './invitations.service.js';
import { InvitationRepository } from './invitation.repository.js';
import { KeyActorResolver } from './key-actor-resolver.js';
import { MembersController } from './members.controller.js';
import { MembersService } from './members.service.js';

/**
 * An account's members and invitations: the API under /api/v1/account, and the services
 * the dashboard's Members and invitation pages use. Mail comes from the email
 * notifications' global module (Mailer, MailQuotaLimiter). The account, membership, user and
 * key tables are read and changed through accounts/'s repositories.
 */
@Module({
  imports: [
    AccountsModule,
    SecondFactorsModule,
    AccountRepositoriesModule,
    TypeOrmModule.forFeature([Invitation]),
  ],
  controllers: [MembersController, InvitationsController],
  providers: [
    MembersService,
    InvitationsService,
    InvitationLinksService,
    KeyActorResolver,
    InvitationRepository,
  ],
  exports: [MembersService, InvitationsService, InvitationLinksService],
})
export class MembersModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountApiKey } from '../accounts/account-api-key.entity.js';
import { Account } from '../accounts/account.entity.js';
import { AccountsModule } from '../accounts/accounts.module.js';
import { Invitation } from '../accounts/invitation.entity.js';
import { Membership } from '../accounts/membership.entity.js';
import { User } from '../accounts/user.entity.js';
import { SecondFactorsModule } from '../second-factors/second-factors.module.js';
import { InvitationLinksService } from './invitation-links.service.js';
import { InvitationsController } from './invitations.controller.js';
import { InvitationsService } from './invitations.service.js';
import { AccountApiKeyRepository } from './account-api-key.repository.js';
import { AccountRepository } from './account.repository.js';
import { InvitationRepository } from './invitation.repository.js';
import { KeyActors } from './key-actor.js';
import { MembershipRepository } from './membership.repository.js';
import { UserRepository } from './user.repository.js';
import { MembersController } from './members.controller.js';
import { MembersService } from './members.service.js';

/**
 * An account's members and invitations: the API under /api/v1/account, and the services
 * the dashboard's Members and invitation pages use. Mail comes from the email
 * notifications' global module (Mailer, MailQuotas).
 */
@Module({
  imports: [
    AccountsModule,
    SecondFactorsModule,
    TypeOrmModule.forFeature([
      Invitation,
      Membership,
      User,
      Account,
      AccountApiKey,
    ]),
  ],
  controllers: [MembersController, InvitationsController],
  providers: [
    MembersService,
    InvitationsService,
    InvitationLinksService,
    KeyActors,
    InvitationRepository,
    MembershipRepository,
    AccountRepository,
    UserRepository,
    AccountApiKeyRepository,
  ],
  exports: [MembersService, InvitationsService, InvitationLinksService],
})
export class MembersModule {}

// The OpenAPI description of the invitations routes, one composed decorator per route.
import { applyDecorators } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { ErrorDto, ValidationErrorDto } from '../common/dto/error.dto.js';
import { CreateInvitationDto } from './dto/create-invitation.dto.js';
import {
  InvitationListResponseDto,
  InvitationResponseDto,
} from './dto/invitation-response.dto.js';
import { INVITATION_NOT_FOUND } from './invitations.service.js';

export const ListInvitationsDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'List pending invitations',
      description:
        'Invitations neither accepted, revoked nor expired, newest first. Every key role may read it.',
    }),
    ApiOkResponse({ type: InvitationListResponseDto }),
  );

export const CreateInvitationDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Invite someone',
      description:
        "Mails the address a link to join the account with the role (valid 7 days, once). The mail names the account, the key as who invited, and the role, nothing else. Needs an `admin` key; the role is at most the key's own. Invitations share the confirmation-mail caps: 30 a day per account, 3 a day per address.",
    }),
    ApiBody({ type: CreateInvitationDto }),
    ApiCreatedResponse({ type: InvitationResponseDto }),
    ApiBadRequestResponse({
      type: ValidationErrorDto,
      description: 'The body is not valid: one message per problem.',
      example: {
        error: 'Validation failed',
        errors: ['email must be a valid email address'],
      },
    }),
    ApiForbiddenResponse({
      type: ErrorDto,
      description:
        "The key's role lacks `members.manage`, or the role asked for is above the key's own (`owner` included).",
      example: { error: 'This key cannot make someone an owner' },
    }),
    ApiConflictResponse({
      type: ErrorDto,
      description:
        'The address is a member already or has a pending invitation, the account has MAX_MEMBERS_PER_ACCOUNT members and pending invitations, or email is off on this server.',
      example: { error: 'This address is already a member of the account' },
    }),
    ApiTooManyRequestsResponse({
      type: ErrorDto,
      description:
        'A mail cap refused: nothing was sent and nothing stored. `Retry-After` says when the day ends.',
      headers: {
        'Retry-After': {
          description: 'Seconds to wait before trying again.',
          schema: { type: 'integer', example: 3600 },
        },
      },
      example: {
        error:
          'This address was sent as many invitations and confirmation links as it may receive for now: try again later',
      },
    }),
  );

export const RevokeInvitationDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Revoke an invitation',
      description:
        'Its link answers 410 from now on. Needs an `admin` key; an invitation as owner cannot be revoked by a key.',
    }),
    ApiParam({
      name: 'id',
      description:
        'The `id` of the invitation, from `GET /api/v1/account/invitations`.',
    }),
    ApiNoContentResponse({ description: 'Revoked.' }),
    ApiForbiddenResponse({
      type: ErrorDto,
      description:
        "The key's role lacks `members.manage`, or the invitation is for an owner.",
      example: { error: 'This key cannot manage an invitation as owner' },
    }),
    ApiNotFoundResponse({
      type: ErrorDto,
      description: 'No such pending invitation in this account.',
      example: { error: INVITATION_NOT_FOUND },
    }),
  );

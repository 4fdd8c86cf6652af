// The OpenAPI description of the members routes, one composed decorator per route.
import { applyDecorators } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
} from '@nestjs/swagger';
import { ErrorDto, ValidationErrorDto } from '../common/dto/error.dto.js';
import {
  MemberListResponseDto,
  MemberResponseDto,
} from './dto/member-response.dto.js';
import { UpdateMemberDto } from './dto/update-member.dto.js';
import { MEMBER_NOT_FOUND } from './members.service.js';

const USER_ID_PARAM = {
  name: 'userId',
  description:
    'The `userId` of the member, from `GET /api/v1/account/members`.',
};

const NOT_A_MEMBER = {
  type: ErrorDto,
  description: 'No such member in this account.',
  example: { error: MEMBER_NOT_FOUND },
};

const OWNER_OR_ABOVE = {
  type: ErrorDto,
  description:
    "The key's role lacks `members.manage` (only `admin` keys have it), the member is an owner (owners are managed in the dashboard, by owners), or the role is above the key's own.",
  example: { error: "This key cannot change an owner's membership" },
};

export const ListMembersDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'List members',
      description:
        "The account's members with their roles, who joined first first. Every key role may read it.",
    }),
    ApiOkResponse({ type: MemberListResponseDto }),
  );

export const UpdateMemberDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: "Change a member's role",
      description:
        "Gives the member another role (`admin`, `developer`, `editor` or `viewer`, at most the key's own). It applies from the member's next request. Needs an `admin` key.",
    }),
    ApiParam(USER_ID_PARAM),
    ApiBody({ type: UpdateMemberDto }),
    ApiOkResponse({ type: MemberResponseDto }),
    ApiBadRequestResponse({
      type: ValidationErrorDto,
      description: 'The body is not valid: one message per problem.',
      example: {
        error: 'Validation failed',
        errors: [
          'role must be one of the following values: viewer, editor, developer, admin',
        ],
      },
    }),
    ApiForbiddenResponse(OWNER_OR_ABOVE),
    ApiNotFoundResponse(NOT_A_MEMBER),
  );

export const RemoveMemberDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Remove a member',
      description:
        'The person loses access to the account from their next request, on every instance. Needs an `admin` key; owners are removed in the dashboard, by owners.',
    }),
    ApiParam(USER_ID_PARAM),
    ApiNoContentResponse({ description: 'Removed.' }),
    ApiForbiddenResponse(OWNER_OR_ABOVE),
    ApiNotFoundResponse(NOT_A_MEMBER),
  );

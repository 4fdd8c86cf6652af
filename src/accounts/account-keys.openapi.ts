// The OpenAPI description of the account keys routes, one composed decorator per route.
import { applyDecorators } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
} from '@nestjs/swagger';
import { ErrorDto, ValidationErrorDto } from '../common/dto/error.dto.js';
import {
  AccountKeyListResponseDto,
  CreatedAccountKeyResponseDto,
} from './dto/account-key-response.dto.js';
import { CreateAccountKeyDto } from './dto/create-account-key.dto.js';

export const ListAccountKeysDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'List account keys',
      description:
        "The account's keys that are not revoked (expired ones included), newest first. Needs an account key; a read-only one may list.",
    }),
    ApiOkResponse({ type: AccountKeyListResponseDto }),
  );

export const CreateAccountKeyDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Create an account key',
      description:
        'Creates a key reaching every form of the account, optionally read-only and/or expiring. Needs an account key that is not read-only; a key that expires may only create keys expiring no later than itself. The answer is the only time the key is shown.',
    }),
    ApiBody({ type: CreateAccountKeyDto }),
    ApiCreatedResponse({ type: CreatedAccountKeyResponseDto }),
    ApiBadRequestResponse({
      type: ValidationErrorDto,
      description: 'The body is not valid: one message per problem.',
      example: {
        error: 'Validation failed',
        errors: ['expiresAt must be in the future'],
      },
    }),
  );

export const RevokeAccountKeyDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Revoke an account key',
      description:
        'The key is refused (403) from this moment on, on every instance. A key may revoke itself. A key that expires may not revoke one that expires later or never (403).',
    }),
    ApiParam({
      name: 'keyId',
      description: 'The `id` of the key, from `GET /api/v1/account/keys`.',
    }),
    ApiNoContentResponse({ description: 'Revoked.' }),
    ApiNotFoundResponse({
      type: ErrorDto,
      description: 'No such key in this account, or it is already revoked.',
      example: { error: 'API key not found' },
    }),
  );

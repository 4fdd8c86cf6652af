// The OpenAPI description of each chat-channels route, one composed decorator per route.
import { applyDecorators } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { ErrorDto, ValidationErrorDto } from '../../common/dto/error.dto.js';
import { FORM_ID_PARAM } from '../../forms/routes/form-route.openapi.js';
import { DeliveryResponseDto } from '../deliveries/dto/delivery-response.dto.js';
import {
  TESTS_PER_WEBHOOK,
  tooManyTestsMessage,
} from '../notification-limiter.js';
import {
  ChatChannelListResponseDto,
  ChatChannelResponseDto,
  CreateChatChannelDto,
  PatchChatChannelDto,
} from './dto/chat-channel.dto.js';

const CHANNEL_ID_PARAM = {
  name: 'channelId',
  description:
    'The chat channel id, as listed by `GET /api/v1/forms/{id}/chat-channels`.',
};
const NOT_FOUND = {
  type: ErrorDto,
  description:
    'No such form (or the key may not reach it), or the form has no such chat channel.',
  example: { error: 'Chat channel not found' },
};
const INVALID = {
  type: ValidationErrorDto,
  description:
    "The body is not valid, or the URL is not on the provider's own hosts (or those CHAT_ALLOWED_HOSTS names), or leads to a private address.",
  example: {
    error: 'Validation failed',
    errors: ['url must be a Slack webhook URL, on hooks.slack.com'],
  },
};

export const ListChatChannelsDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: "List a form's chat channels",
      description: 'Oldest first. Webhook URLs and bot tokens are never shown.',
    }),
    ApiParam(FORM_ID_PARAM),
    ApiOkResponse({ type: ChatChannelListResponseDto }),
    ApiNotFoundResponse(NOT_FOUND),
  );

export const CreateChatChannelDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Add a chat channel (Slack, Discord, Microsoft Teams, Telegram)',
      description:
        'Every submission of the form is posted to the channel: the form name, up to 10 fields, file names and a dashboard link, escaped so no value formats or pings. ' +
        '`{kind, name?, url}` for slack, discord and teams; `{kind: "telegram", name?, botToken, chatId}`. The URL and token are write-only. At most 10 a form.',
    }),
    ApiParam(FORM_ID_PARAM),
    ApiBody({ type: CreateChatChannelDto }),
    ApiCreatedResponse({ type: ChatChannelResponseDto }),
    ApiBadRequestResponse(INVALID),
    ApiNotFoundResponse(NOT_FOUND),
    ApiConflictResponse({
      type: ErrorDto,
      description: 'The form has 10 chat channels already.',
    }),
  );

export const PatchChatChannelDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Change a chat channel',
      description:
        'Rename, turn on or off (on clears `disabledReason`), or give a new URL / bot token / chat id.',
    }),
    ApiParam(FORM_ID_PARAM),
    ApiParam(CHANNEL_ID_PARAM),
    ApiBody({ type: PatchChatChannelDto }),
    ApiOkResponse({ type: ChatChannelResponseDto }),
    ApiBadRequestResponse(INVALID),
    ApiNotFoundResponse(NOT_FOUND),
  );

export const DeleteChatChannelDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Delete a chat channel',
      description: 'Its deliveries go with it.',
    }),
    ApiParam(FORM_ID_PARAM),
    ApiParam(CHANNEL_ID_PARAM),
    ApiNoContentResponse({ description: 'Deleted.' }),
    ApiNotFoundResponse(NOT_FOUND),
  );

export const TestChatChannelDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Send a test message',
      description:
        'Queues a `chat.test` message, sent at once and retried like any delivery. ' +
        `At most ${TESTS_PER_WEBHOOK} a minute per channel (429 with Retry-After beyond).`,
    }),
    ApiParam(FORM_ID_PARAM),
    ApiParam(CHANNEL_ID_PARAM),
    ApiAcceptedResponse({ type: DeliveryResponseDto }),
    ApiNotFoundResponse(NOT_FOUND),
    ApiConflictResponse({
      type: ErrorDto,
      description: 'The channel is turned off.',
    }),
    ApiTooManyRequestsResponse({
      type: ErrorDto,
      description: `More than ${TESTS_PER_WEBHOOK} test messages of this channel in the last minute.`,
      headers: {
        'Retry-After': {
          description: 'Seconds until the budget is renewed.',
          schema: { type: 'integer', example: 42 },
        },
      },
      example: { error: tooManyTestsMessage(42) },
    }),
  );

// The OpenAPI description of each webhooks route, one composed decorator per route.
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
import {
  DeliveryListResponseDto,
  DeliveryResponseDto,
} from '../deliveries/dto/delivery-response.dto.js';
import { CreateWebhookDto, PatchWebhookDto } from './dto/webhook-input.dto.js';
import {
  CreatedWebhookResponseDto,
  WebhookListResponseDto,
  WebhookResponseDto,
  WebhookSecretDto,
} from './dto/webhook-response.dto.js';
import {
  RETRIES_PER_FORM,
  TESTS_PER_WEBHOOK,
  tooManyRetriesMessage,
  tooManyTestsMessage,
} from '../notification-limiter.js';
import { tooManyWebhooksMessage } from './webhooks.service.js';

const RETRY_AFTER_HEADER = {
  'Retry-After': {
    description: 'Seconds until the budget is renewed.',
    schema: { type: 'integer', example: 42 },
  },
};

const WEBHOOK_ID_PARAM = {
  name: 'webhookId',
  description:
    'The webhook id, as listed by `GET /api/v1/forms/{id}/webhooks`.',
};
const DELIVERY_ID_PARAM = {
  name: 'deliveryId',
  description: "The delivery id, as listed by the webhook's deliveries.",
};
const NOT_FOUND = {
  type: ErrorDto,
  description:
    'No such form (or the key may not reach it), or the form has no such webhook.',
  example: { error: 'Webhook not found' },
};
const INVALID_WEBHOOK = {
  type: ValidationErrorDto,
  description:
    'The body is not valid, or the URL is refused (not http/https, carries credentials, or resolves to a private, loopback or link-local address).',
  example: {
    error: 'Validation failed',
    errors: [
      'url: the host hooks.internal is not public: it resolves to a private, loopback or link-local address, and such targets are refused (set WEBHOOK_ALLOW_PRIVATE=true to allow them on a LAN installation)',
    ],
  },
};

export const ListWebhooksDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: "List a form's webhooks",
      description: 'Oldest first. Secrets are never listed.',
    }),
    ApiParam(FORM_ID_PARAM),
    ApiOkResponse({ type: WebhookListResponseDto }),
    ApiNotFoundResponse(NOT_FOUND),
  );

export const CreateWebhookDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Add a webhook',
      description:
        'Every new submission is POSTed to the URL, signed per the Standard Webhooks specification (`webhook-id`, `webhook-timestamp`, `webhook-signature`). ' +
        'The answer carries the signing `secret`, shown only here and on rotation. A form has at most 10 webhooks.',
    }),
    ApiParam(FORM_ID_PARAM),
    ApiBody({ type: CreateWebhookDto }),
    ApiCreatedResponse({ type: CreatedWebhookResponseDto }),
    ApiBadRequestResponse(INVALID_WEBHOOK),
    ApiNotFoundResponse(NOT_FOUND),
    ApiConflictResponse({
      type: ErrorDto,
      description: 'The form already has 10 webhooks.',
      example: { error: tooManyWebhooksMessage() },
    }),
  );

export const GetWebhookDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({ summary: 'Read a webhook' }),
    ApiParam(FORM_ID_PARAM),
    ApiParam(WEBHOOK_ID_PARAM),
    ApiOkResponse({ type: WebhookResponseDto }),
    ApiNotFoundResponse(NOT_FOUND),
  );

export const PatchWebhookDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Change a webhook',
      description:
        'Changes only the properties sent. `enabled: true` turns a webhook on again and clears `disabledReason`.',
    }),
    ApiParam(FORM_ID_PARAM),
    ApiParam(WEBHOOK_ID_PARAM),
    ApiBody({ type: PatchWebhookDto }),
    ApiOkResponse({ type: WebhookResponseDto }),
    ApiBadRequestResponse(INVALID_WEBHOOK),
    ApiNotFoundResponse(NOT_FOUND),
  );

export const DeleteWebhookDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Delete a webhook',
      description: 'Deliveries still waiting for it are given up.',
    }),
    ApiParam(FORM_ID_PARAM),
    ApiParam(WEBHOOK_ID_PARAM),
    ApiNoContentResponse({ description: 'Deleted.' }),
    ApiNotFoundResponse(NOT_FOUND),
  );

export const RotateWebhookSecretDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: "Rotate a webhook's signing secret",
      description:
        'Returns the new secret (shown only now). For 24 hours every request carries two signatures, one per secret, so the receiver can switch at leisure.',
    }),
    ApiParam(FORM_ID_PARAM),
    ApiParam(WEBHOOK_ID_PARAM),
    ApiOkResponse({ type: WebhookSecretDto }),
    ApiNotFoundResponse(NOT_FOUND),
  );

export const TestWebhookDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Send a test event',
      description:
        'Queues a `webhook.test` event (`data: {formId, webhookId}`), sent at once and retried like any delivery. ' +
        `At most ${TESTS_PER_WEBHOOK} a minute per webhook (429 with Retry-After beyond).`,
    }),
    ApiParam(FORM_ID_PARAM),
    ApiParam(WEBHOOK_ID_PARAM),
    ApiAcceptedResponse({ type: DeliveryResponseDto }),
    ApiNotFoundResponse(NOT_FOUND),
    ApiConflictResponse({
      type: ErrorDto,
      description: 'The webhook is turned off.',
      example: {
        error:
          'This webhook is turned off: turn it on before sending a test event',
      },
    }),
    ApiTooManyRequestsResponse({
      type: ErrorDto,
      description: `More than ${TESTS_PER_WEBHOOK} test events of this webhook in the last minute; \`Retry-After\` says when to retry.`,
      headers: RETRY_AFTER_HEADER,
      example: { error: tooManyTestsMessage(42) },
    }),
  );

export const ListWebhookDeliveriesDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: "A webhook's deliveries",
      description: 'Newest first, `limit` per page (1–100, default 25).',
    }),
    ApiParam(FORM_ID_PARAM),
    ApiParam(WEBHOOK_ID_PARAM),
    ApiOkResponse({ type: DeliveryListResponseDto }),
    ApiBadRequestResponse({
      type: ValidationErrorDto,
      description: 'A bad `limit` or `cursor`.',
    }),
    ApiNotFoundResponse(NOT_FOUND),
  );

export const RetryWebhookDeliveryDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Retry a delivery',
      description:
        'Makes a failed, dead or succeeded delivery due now, with the retry schedule started afresh (`attempts` keeps counting). ' +
        `At most ${RETRIES_PER_FORM} retries a minute per form (429 with Retry-After beyond).`,
    }),
    ApiParam(FORM_ID_PARAM),
    ApiParam(WEBHOOK_ID_PARAM),
    ApiParam(DELIVERY_ID_PARAM),
    ApiAcceptedResponse({ type: DeliveryResponseDto }),
    ApiNotFoundResponse({
      type: ErrorDto,
      description: 'No such form, webhook or delivery.',
      example: { error: 'Delivery not found' },
    }),
    ApiConflictResponse({
      type: ErrorDto,
      description:
        'The delivery is being sent right now: retry once the attempt is recorded.',
      example: {
        error:
          'This delivery is being sent right now: retry once the attempt is recorded',
      },
    }),
    ApiTooManyRequestsResponse({
      type: ErrorDto,
      description: `More than ${RETRIES_PER_FORM} retries of this form's deliveries in the last minute; \`Retry-After\` says when to retry.`,
      headers: RETRY_AFTER_HEADER,
      example: { error: tooManyRetriesMessage(42) },
    }),
  );

// The OpenAPI description of each forms route, one composed decorator per route.
import { applyDecorators } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
} from '@nestjs/swagger';
import { ErrorDto, ValidationErrorDto } from '../common/dto/error.dto.js';
import { CreateFormDto } from './dto/create-form.dto.js';
import {
  ApiKeyResponseDto,
  CreatedFormResponseDto,
  FormListResponseDto,
  FormResponseDto,
} from './dto/form-response.dto.js';
import { PatchFormDto } from './dto/patch-form.dto.js';
import { RegenerateKeyDto } from './dto/regenerate-key.dto.js';
import { UpdateFormDto } from './dto/update-form.dto.js';
import { tooManyFormsMessage } from './answers/form-created.js';
import {
  FORM_ID_PARAM,
  FORM_NOT_FOUND_RESPONSE,
} from './routes/form-route.openapi.js';

const INVALID_BODY = {
  type: ValidationErrorDto,
  description: 'The body is not valid: one message per problem.',
  example: {
    error: 'Validation failed',
    errors: [
      'name is required',
      'fields.1.type must be one of: text, email, textarea, number, url, tel, date, select, checkbox',
    ],
  },
};

// The bodies Swagger UI pre-fills for "Try it out": only a name and fields, so trying a
// route on a real form never sets its redirect address or mails a confirmation link to an
// example address (the schemas' examples would do both).
const CONTACT_FIELDS_EXAMPLE = [
  { id: 'email', type: 'email', label: 'Email', required: true },
  { id: 'message', type: 'textarea', label: 'Message' },
];

const bodyExample = (summary: string, value: object) => ({
  [summary.toLowerCase().replace(/\W+/g, '-')]: { summary, value },
});

export const ListFormsDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'List forms',
      description:
        'An account key lists every form of its account; a form key lists just its own form. Newest first.',
    }),
    ApiOkResponse({ type: FormListResponseDto }),
  );

export const CreateFormDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Create a form',
      description:
        "Creates a form in the account of the key (a form key creates a sibling form). The answer carries the new form's own API key. Created with a form key, the answer also has a `warning`: that form key cannot reach the new form (404), so keep the new key or use an account key. An account holds at most MAX_FORMS_PER_ACCOUNT forms (1,000 by default); rotating a form's key does not revoke the keys of forms created with it.",
    }),
    ApiBody({
      type: CreateFormDto,
      examples: bodyExample('A contact form', {
        name: 'Contact',
        fields: CONTACT_FIELDS_EXAMPLE,
      }),
    }),
    ApiCreatedResponse({ type: CreatedFormResponseDto }),
    ApiBadRequestResponse(INVALID_BODY),
    ApiConflictResponse({
      type: ErrorDto,
      description:
        'The account already has MAX_FORMS_PER_ACCOUNT forms (1,000 unless configured otherwise).',
      example: { error: tooManyFormsMessage(1000) },
    }),
  );

export const GetFormDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({ summary: 'Read a form' }),
    ApiParam(FORM_ID_PARAM),
    ApiOkResponse({ type: FormResponseDto }),
    ApiNotFoundResponse(FORM_NOT_FOUND_RESPONSE),
  );

export const ReplaceFormDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Replace a form',
      description:
        'Replaces every writable property; omitted fields, domainVerification, notifyEmails, redirectUrl, successMessage and retentionDays become [], false, [], null, null and null. Use PATCH to change only some properties.',
    }),
    ApiParam(FORM_ID_PARAM),
    ApiBody({
      type: UpdateFormDto,
      examples: bodyExample('Name and fields only', {
        name: 'Contact',
        fields: CONTACT_FIELDS_EXAMPLE,
        domainVerification: false,
      }),
    }),
    ApiOkResponse({ type: FormResponseDto }),
    ApiBadRequestResponse(INVALID_BODY),
    ApiNotFoundResponse(FORM_NOT_FOUND_RESPONSE),
  );

export const PatchFormDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Update part of a form',
      description: 'Changes only the properties sent.',
    }),
    ApiParam(FORM_ID_PARAM),
    ApiBody({
      type: PatchFormDto,
      examples: bodyExample('Rename', { name: 'Contact form' }),
    }),
    ApiOkResponse({ type: FormResponseDto }),
    ApiBadRequestResponse(INVALID_BODY),
    ApiNotFoundResponse(FORM_NOT_FOUND_RESPONSE),
  );

export const DeleteFormDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Delete a form',
      description:
        'Deletes the form with its submissions and domains. Its API key stops working.',
    }),
    ApiParam(FORM_ID_PARAM),
    ApiNoContentResponse({ description: 'Deleted.' }),
    ApiNotFoundResponse(FORM_NOT_FOUND_RESPONSE),
  );

export const RegenerateFormKeyDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: "Regenerate a form's API key",
      description:
        'Issues a new key for the form. Without a body (or with `graceSeconds` 0) the old key is refused (403) from this moment on: put the new one into every client. With `graceSeconds` the old key keeps working that long on every instance (the form shows it as `previousApiKey`), so clients can move over without downtime; a key still in grace from an earlier rotation stops working at once. Asked with a key that expires, the new key expires with it (and a grace never outlives the old key’s own expiry); such a key may not replace a form key that outlives it (403).',
    }),
    ApiParam(FORM_ID_PARAM),
    ApiBody({ type: RegenerateKeyDto, required: false }),
    ApiOkResponse({ type: ApiKeyResponseDto }),
    ApiBadRequestResponse({
      ...INVALID_BODY,
      example: {
        error: 'Validation failed',
        errors: ['graceSeconds must be 0 to 604800'],
      },
    }),
    ApiNotFoundResponse(FORM_NOT_FOUND_RESPONSE),
    ApiConflictResponse({
      type: ErrorDto,
      description:
        'Other rotations of the same key kept winning the race: try again.',
    }),
  );

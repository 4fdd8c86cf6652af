// The OpenAPI description of the notes and labels routes, one composed decorator per route.
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
} from '@nestjs/swagger';
import { ErrorDto, ValidationErrorDto } from '../../common/dto/error.dto.js';
import {
  CreateLabelDto,
  LabelDto,
  LabelListDto,
  UpdateLabelDto,
} from '../dto/label.dto.js';
import { NoteBodyDto, NoteDto, NoteListDto } from '../dto/note.dto.js';
import {
  SUBMISSION_ID_PARAM,
  SUBMISSION_NOT_FOUND_RESPONSE,
} from '../submissions.openapi.js';
import { LABEL_NOT_FOUND, LABEL_TAKEN } from './labels.service.js';
import { NOTE_NOT_FOUND, NOTE_NOT_YOURS } from './notes.service.js';

const NOTE_ID_PARAM = { name: 'noteId', description: 'A note `id`.' };
const LABEL_ID_PARAM = {
  name: 'labelId',
  description: 'A label `id` from `GET /api/v1/account/labels`.',
};

const BAD_NOTE = {
  type: ValidationErrorDto,
  description: 'The text is missing, empty or longer than 5,000 characters.',
  example: {
    error: 'Validation failed',
    errors: ['text must be at most 5000 characters'],
  },
};
const NOTE_MISSING = {
  type: ErrorDto,
  description: 'No such form, submission or note.',
  example: { error: NOTE_NOT_FOUND },
};
const NOT_YOURS = {
  type: ErrorDto,
  description:
    "Only the note's author (the same key or member) or an admin may change it; or the key lacks `submissions.work`.",
  example: { error: NOTE_NOT_YOURS },
};
const BAD_LABEL = {
  type: ValidationErrorDto,
  description:
    'The name is missing, empty or longer than 40 characters, or the colour is not one of the palette.',
  example: {
    error: 'Validation failed',
    errors: [
      'color must be one of gray, red, orange, yellow, green, teal, blue, indigo, purple, pink',
    ],
  },
};
const LABEL_MISSING = {
  type: ErrorDto,
  description: 'The account has no such label.',
  example: { error: LABEL_NOT_FOUND },
};
const LABEL_CONFLICT = {
  type: ErrorDto,
  description: 'The account already has a label of that name.',
  example: { error: LABEL_TAKEN },
};

export const ListNotesDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: "List a submission's notes",
      description: 'Oldest first. Every key role may read them.',
    }),
    ApiParam(SUBMISSION_ID_PARAM),
    ApiOkResponse({ type: NoteListDto }),
    ApiNotFoundResponse(SUBMISSION_NOT_FOUND_RESPONSE),
  );

export const AddNoteDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Write a note on a submission',
      description: 'Plain text, at most 5,000 characters.',
    }),
    ApiParam(SUBMISSION_ID_PARAM),
    ApiBody({ type: NoteBodyDto }),
    ApiCreatedResponse({ type: NoteDto }),
    ApiBadRequestResponse(BAD_NOTE),
    ApiNotFoundResponse(SUBMISSION_NOT_FOUND_RESPONSE),
  );

export const EditNoteDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Change a note',
      description: 'Its author or an admin only.',
    }),
    ApiParam(SUBMISSION_ID_PARAM),
    ApiParam(NOTE_ID_PARAM),
    ApiBody({ type: NoteBodyDto }),
    ApiOkResponse({ type: NoteDto }),
    ApiBadRequestResponse(BAD_NOTE),
    ApiForbiddenResponse(NOT_YOURS),
    ApiNotFoundResponse(NOTE_MISSING),
  );

export const DeleteNoteDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Delete a note',
      description: 'Its author or an admin only.',
    }),
    ApiParam(SUBMISSION_ID_PARAM),
    ApiParam(NOTE_ID_PARAM),
    ApiNoContentResponse({ description: 'Deleted.' }),
    ApiForbiddenResponse(NOT_YOURS),
    ApiNotFoundResponse(NOTE_MISSING),
  );

export const ListLabelsDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: "List the account's labels",
      description: 'By name. Every key role may read them.',
    }),
    ApiOkResponse({ type: LabelListDto }),
  );

export const CreateLabelDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Make a label',
      description:
        'A name (at most 40 characters, unique in the account) and a colour of the palette (`gray` by default).',
    }),
    ApiBody({ type: CreateLabelDto }),
    ApiCreatedResponse({ type: LabelDto }),
    ApiBadRequestResponse(BAD_LABEL),
    ApiConflictResponse(LABEL_CONFLICT),
  );

export const UpdateLabelDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Rename or recolour a label',
      description: 'The submissions it is on keep it under its new name.',
    }),
    ApiParam(LABEL_ID_PARAM),
    ApiBody({ type: UpdateLabelDto }),
    ApiOkResponse({ type: LabelDto }),
    ApiBadRequestResponse(BAD_LABEL),
    ApiConflictResponse(LABEL_CONFLICT),
    ApiNotFoundResponse(LABEL_MISSING),
  );

export const DeleteLabelDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Delete a label',
      description: 'It comes off every submission it was on.',
    }),
    ApiParam(LABEL_ID_PARAM),
    ApiNoContentResponse({ description: 'Deleted.' }),
    ApiNotFoundResponse(LABEL_MISSING),
  );

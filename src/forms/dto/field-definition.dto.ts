import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { FIELD_TYPES, type FieldType } from '../form.entity.js';
import {
  ACCEPT_ENTRY,
  FIELD_ID_PATTERN,
  IsFieldId,
  OnlyForFileFields,
  OptionsOnlyForSelect,
  Optional,
  Required,
  ValidateOptionsIfRelevant,
} from '../validators/form-validators.js';

export const MAX_LABEL_LENGTH = 200;
export const MAX_FIELD_VALUE_LENGTH = 100_000;
export const MAX_OPTIONS = 100;
export const MAX_OPTION_LENGTH = 200;
/** The `maxSize` of a `file` field without one (never above UPLOAD_MAX_FILE_SIZE). */
export const DEFAULT_FILE_MAX_SIZE = 10 * 1024 * 1024;
/** Files one submission may carry, in all its fields together. */
export const MAX_FILES_PER_SUBMISSION = 10;
export const MAX_ACCEPT_ENTRIES = 50;

// class-validator runs a property's checks bottom-up and, with stopAtFirstError, reports
// only the first that fails: so the presence and type checks sit lowest.

/** One field of a form: submitted keys must equal its `id` exactly. */
export class FieldDefinitionDto {
  @ApiProperty({
    description:
      'The key submissions use for this field, matched exactly (case included). A leading `_` is reserved for control keys such as `_honeypot`.',
    pattern: FIELD_ID_PATTERN.source,
    minLength: 1,
    maxLength: 64,
    example: 'email',
  })
  @IsFieldId()
  @Required()
  id: string;

  @ApiProperty({
    enum: FIELD_TYPES,
    description:
      '`email` and `url` values are format-checked, `select` values must be one of `options`, `checkbox` takes `on`/`true`/`false`, `file` takes uploaded files (multipart/form-data only).',
    example: 'email',
  })
  @IsIn(FIELD_TYPES, {
    message: `$property must be one of: ${FIELD_TYPES.join(', ')}`,
  })
  @Required()
  type: FieldType;

  @ApiPropertyOptional({
    description: 'Human-readable label shown in the dashboard.',
    maxLength: MAX_LABEL_LENGTH,
    example: 'Your email address',
  })
  @MaxLength(MAX_LABEL_LENGTH, {
    message: `$property must be at most ${MAX_LABEL_LENGTH} characters long`,
  })
  @IsString({ message: '$property must be a string' })
  @Optional()
  label?: string;

  // No `default` keyword: client generators (openapi-typescript) would make the property
  // mandatory in the input type. The response schema (FieldDefinitionResponseDto) is apart.
  @ApiPropertyOptional({
    description:
      'When true, a submission without this field is refused; `false` when omitted.',
    example: true,
  })
  @IsBoolean({ message: '$property must be true or false' })
  @Optional()
  required?: boolean;

  @ApiPropertyOptional({
    description: 'Longest accepted value, in characters (5000 when omitted).',
    minimum: 1,
    maximum: MAX_FIELD_VALUE_LENGTH,
    example: 320,
  })
  @Max(MAX_FIELD_VALUE_LENGTH, {
    message: `$property must be at most ${MAX_FIELD_VALUE_LENGTH}`,
  })
  @Min(1, { message: '$property must be at least 1' })
  @IsInt({ message: '$property must be a whole number' })
  @Optional()
  maxLength?: number;

  @ApiPropertyOptional({
    description:
      'The accepted values of a `select` field: required there, refused on every other type.',
    type: [String],
    minItems: 1,
    maxItems: MAX_OPTIONS,
    example: ['sales', 'support'],
  })
  @Length(1, MAX_OPTION_LENGTH, {
    each: true,
    message: `each entry of $property must be 1 to ${MAX_OPTION_LENGTH} characters long`,
  })
  @IsString({ each: true, message: 'each entry of $property must be a string' })
  @ArrayMaxSize(MAX_OPTIONS, {
    message: `$property must have at most ${MAX_OPTIONS} entries`,
  })
  @ArrayMinSize(1, { message: '$property must not be empty' })
  @IsArray({ message: '$property must be an array of strings' })
  @OptionsOnlyForSelect()
  @Required({ message: '$property is required for select fields' })
  @ValidateOptionsIfRelevant()
  options?: string[];

  @ApiPropertyOptional({
    description:
      "A `file` field's largest accepted file, in bytes (10 MiB when omitted; at most the server's `UPLOAD_MAX_FILE_SIZE`). A larger upload is refused with 413.",
    minimum: 1,
    example: 5242880,
  })
  @Min(1, { message: '$property must be at least 1' })
  @IsInt({ message: '$property must be a whole number of bytes' })
  @OnlyForFileFields()
  @Optional()
  maxSize?: number;

  @ApiPropertyOptional({
    description:
      "A `file` field's accepted formats: MIME types (`application/pdf`), families (`image/*`) or extensions (`.pdf`). The format is judged from the file's bytes and its extension, never from the type the client sends. HTML, SVG and XML are accepted only when their MIME type is listed. When omitted, any format but those.",
    type: [String],
    minItems: 1,
    maxItems: MAX_ACCEPT_ENTRIES,
    example: ['image/*', '.pdf'],
  })
  @Matches(ACCEPT_ENTRY, {
    each: true,
    message:
      'each entry of $property must be a MIME type (image/png), a family (image/*) or an extension (.pdf)',
  })
  @IsString({ each: true, message: 'each entry of $property must be a string' })
  @ArrayMaxSize(MAX_ACCEPT_ENTRIES, {
    message: `$property must have at most ${MAX_ACCEPT_ENTRIES} entries`,
  })
  @ArrayMinSize(1, { message: '$property must not be empty' })
  @IsArray({ message: '$property must be an array of strings' })
  @OnlyForFileFields()
  @Optional()
  accept?: string[];

  @ApiPropertyOptional({
    description: `How many files a submission may send for a \`file\` field (1 when omitted). With more than 1, the submission's value is always a list.`,
    minimum: 1,
    maximum: MAX_FILES_PER_SUBMISSION,
    example: 3,
  })
  @Max(MAX_FILES_PER_SUBMISSION, {
    message: `$property must be at most ${MAX_FILES_PER_SUBMISSION}`,
  })
  @Min(1, { message: '$property must be at least 1' })
  @IsInt({ message: '$property must be a whole number' })
  @OnlyForFileFields()
  @Optional()
  maxFiles?: number;
}

/**
 * One field as the API shows it: what was written, without defaults filled in (a field
 * without `required` is optional; without `maxLength`, up to 5000 characters).
 */
export class FieldDefinitionResponseDto {
  @ApiProperty({
    description: 'The key submissions use for this field, matched exactly.',
    example: 'email',
  })
  id: string;

  @ApiProperty({ enum: FIELD_TYPES, example: 'email' })
  type: FieldType;

  @ApiPropertyOptional({
    description: 'Human-readable label shown in the dashboard.',
    example: 'Your email address',
  })
  label?: string;

  @ApiPropertyOptional({
    description:
      'Present when set: a submission without this field is refused when true. Absent means false.',
    example: true,
  })
  required?: boolean;

  @ApiPropertyOptional({
    description: 'Longest accepted value, in characters; absent means 5000.',
    example: 320,
  })
  maxLength?: number;

  @ApiPropertyOptional({
    description: 'The accepted values of a `select` field.',
    type: [String],
    example: ['sales', 'support'],
  })
  options?: string[];

  @ApiPropertyOptional({
    description:
      "A `file` field's largest accepted file, in bytes; absent means 10 MiB.",
    example: 5242880,
  })
  maxSize?: number;

  @ApiPropertyOptional({
    description:
      "A `file` field's accepted formats; absent means any but HTML, SVG and XML.",
    type: [String],
    example: ['image/*', '.pdf'],
  })
  accept?: string[];

  @ApiPropertyOptional({
    description:
      'How many files a submission may send for a `file` field; absent means 1.',
    example: 3,
  })
  maxFiles?: number;
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsObject,
  IsString,
  Length,
  ValidateNested,
} from 'class-validator';
import {
  NotifyEmails,
  Optional,
  Required,
  UniqueFieldIds,
} from '../validators/form-validators.js';
import { FieldDefinitionDto } from './field-definition.dto.js';

export const MAX_NAME_LENGTH = 200;
export const MAX_FIELDS = 100;
export const MAX_NOTIFY_EMAILS = 10;

const trimmed = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim() : value;

/** Addresses are kept trimmed and lower-cased; anything else is left for the checks. */
const lowerCasedAddresses = ({ value }: { value: unknown }) =>
  Array.isArray(value)
    ? value.map((entry: unknown) =>
        typeof entry === 'string' ? entry.trim().toLowerCase() : entry,
      )
    : value;

// Checks run bottom-up (see field-definition.dto.ts).

/** The body of `POST /api/v1/forms`; `PUT` takes the same body. */
export class CreateFormDto {
  @ApiProperty({
    description:
      'Name shown in the dashboard (surrounding spaces are trimmed).',
    minLength: 1,
    maxLength: MAX_NAME_LENGTH,
    example: 'Contact',
  })
  @Length(1, MAX_NAME_LENGTH, {
    message: `$property must be 1 to ${MAX_NAME_LENGTH} characters long`,
  })
  @IsString({ message: '$property must be a string' })
  @Required()
  @Transform(trimmed)
  name: string;

  @ApiPropertyOptional({
    description:
      'The fields a submission may carry; `[]` when omitted on create or replace. An empty list accepts any keys that do not start with `_`.',
    type: [FieldDefinitionDto],
    maxItems: MAX_FIELDS,
    example: [
      { id: 'name', type: 'text', label: 'Name', required: true },
      { id: 'email', type: 'email', label: 'Email', required: true },
      {
        id: 'topic',
        type: 'select',
        label: 'Topic',
        options: ['sales', 'support'],
      },
      { id: 'message', type: 'textarea', maxLength: 2000 },
    ],
  })
  @ValidateNested({ each: true })
  @UniqueFieldIds()
  @IsObject({
    each: true,
    message: 'each entry of $property must be an object',
  })
  @ArrayMaxSize(MAX_FIELDS, {
    message: `$property must have at most ${MAX_FIELDS} entries`,
  })
  @IsArray({ message: '$property must be an array of field definitions' })
  @Optional()
  @Type(() => FieldDefinitionDto)
  fields?: FieldDefinitionDto[];

  @ApiPropertyOptional({
    description:
      'When true, only verified domains (and localhost / private development addresses) may submit; `false` when omitted on create or replace.',
    example: false,
  })
  @IsBoolean({ message: '$property must be true or false' })
  @Optional()
  domainVerification?: boolean;

  @ApiPropertyOptional({
    description: `Addresses told of every submission by email (at most ${MAX_NOTIFY_EMAILS}; stored lower-cased; \`[]\` when omitted on create or replace). Each address first receives one message with a confirmation link and gets nothing else until it is confirmed (see \`notifyEmailStatus\`). Needs SMTP_URL and MAIL_FROM on the server.`,
    type: [String],
    maxItems: MAX_NOTIFY_EMAILS,
    example: ['owner@example.com'],
  })
  @NotifyEmails()
  @IsString({ each: true, message: 'each entry of $property must be a string' })
  @ArrayMaxSize(MAX_NOTIFY_EMAILS, {
    message: `$property must have at most ${MAX_NOTIFY_EMAILS} addresses`,
  })
  @IsArray({ message: '$property must be an array of email addresses' })
  @Optional()
  @Transform(lowerCasedAddresses)
  notifyEmails?: string[];
}

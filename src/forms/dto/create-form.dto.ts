import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  MAX_REDIRECT_URL_LENGTH,
  parseAbsoluteHttpUrl,
} from '../settings/redirect-url.js';
import {
  NotifyEmails,
  Optional,
  Required,
  UniqueFieldIds,
} from '../validators/form-validators.js';
import { IsRedirectUrl } from '../validators/redirect-url.validator.js';
import { FieldDefinitionDto } from './field-definition.dto.js';
import { CaptchaDto } from './captcha.dto.js';
import { AutoresponseDto } from './autoresponse.dto.js';
import { SpamFilterDto } from './spam-filter.dto.js';

export const MAX_NAME_LENGTH = 200;
export const MAX_FIELDS = 100;
export const MAX_SUCCESS_MESSAGE_LENGTH = 500;
export const MAX_NOTIFY_EMAILS = 10;
/** The longest retention a form may set: about ten years. */
export const MAX_RETENTION_DAYS = 3650;
const RETENTION_RANGE = `$property must be 1 to ${MAX_RETENTION_DAYS} days, or null to keep submissions`;

const trimmed = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim() : value;

/** Trimmed; a blank string clears the property like null. */
const trimmedOrNull = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim() || null : value;

/** Trimmed, blank → null, and a valid URL in its canonical form (what Location carries). */
const redirectUrl = (params: { value: unknown }) => {
  const value = trimmedOrNull(params);
  return parseAbsoluteHttpUrl(value)?.href ?? value;
};
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
    description:
      'Where a browser that posted the form natively (an HTML form, not a script) is sent after a success: an absolute http or https URL without user info, at most 2000 characters. `null` (or an empty string) shows the thank-you page instead. A `_redirect` field in a submission may override it with a URL on the same host or on a verified domain of the form. `null` when omitted on create or replace.',
    type: String,
    nullable: true,
    maxLength: MAX_REDIRECT_URL_LENGTH,
    example: 'https://www.example.com/thanks',
  })
  @IsRedirectUrl()
  @IsOptional()
  @Transform(redirectUrl)
  redirectUrl?: string | null;

  @ApiPropertyOptional({
    description:
      'The text of the thank-you page a browser sees after posting the form natively (trimmed, at most 500 characters, shown as plain text). `null` (or an empty string) shows a default message. `null` when omitted on create or replace.',
    type: String,
    nullable: true,
    maxLength: MAX_SUCCESS_MESSAGE_LENGTH,
    example: 'Thank you! We will answer within two working days.',
  })
  @MaxLength(MAX_SUCCESS_MESSAGE_LENGTH, {
    message: `$property must be at most ${MAX_SUCCESS_MESSAGE_LENGTH} characters long`,
  })
  @IsString({ message: '$property must be a string or null' })
  @IsOptional()
  @Transform(trimmedOrNull)
  successMessage?: string | null;

  @ApiPropertyOptional({
    description: `How many days a submission is kept (1 to ${MAX_RETENTION_DAYS}): a background sweep deletes submissions older than that, spam included, with their notification deliveries. \`null\` keeps them until deleted (\`null\` when omitted on create or replace).`,
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: MAX_RETENTION_DAYS,
    example: 365,
  })
  @Max(MAX_RETENTION_DAYS, { message: RETENTION_RANGE })
  @Min(1, { message: RETENTION_RANGE })
  @IsInt({ message: '$property must be a whole number of days, or null' })
  @IsOptional()
  retentionDays?: number | null;

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

  @ApiPropertyOptional({
    description:
      'The content rules (spam folder). Omitted properties take their defaults on create and replace (`{"enabled": true, "maxLinks": 5, "blockedWords": [], "duplicates": false}`) and keep their current values on PATCH.',
    type: SpamFilterDto,
  })
  @ValidateNested()
  @IsObject({ message: '$property must be an object' })
  @Optional()
  @Type(() => SpamFilterDto)
  spamFilter?: SpamFilterDto;

  @ApiPropertyOptional({
    description:
      'The CAPTCHA every submission must pass, or `null` for none (`null` when omitted on create or replace). See docs/spam.md to choose one. Replaced as a whole; a `secret` left out keeps the stored secret of the same provider.',
    type: CaptchaDto,
    nullable: true,
  })
  @ValidateNested()
  @IsObject({ message: '$property must be an object or null' })
  @IsOptional()
  @Type(() => CaptchaDto)
  captcha?: CaptchaDto | null;

  @ApiPropertyOptional({
    description:
      'A mail sent back to the address a visitor gave in an email field: your subject and text only, never a value they sent. It can be enabled only on a form with a CAPTCHA (else 400). `null` (the default) for none.',
    type: AutoresponseDto,
    nullable: true,
  })
  @ValidateNested()
  @IsObject({ message: '$property must be an object or null' })
  @IsOptional()
  @Type(() => AutoresponseDto)
  autoresponse?: AutoresponseDto | null;
}

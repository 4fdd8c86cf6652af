import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CaptchaResponseDto } from './captcha.dto.js';
import { AutoresponseResponseDto } from './autoresponse.dto.js';
import { SpamFilterResponseDto } from './spam-filter.dto.js';
import { FieldDefinitionResponseDto } from './field-definition.dto.js';

const EXAMPLE_FORM_ID = 'q3Jv0cXh9S2mB7dLwEo4Tg';

/** A form's replaced key while it is still accepted. */
export class PreviousApiKeyDto {
  @ApiProperty({
    description: 'The first characters of the replaced key.',
    example: 'fgk_Q7m2Lp0v',
  })
  prefix: string;

  @ApiProperty({
    description: 'From this moment on the replaced key is refused (403).',
    type: String,
    format: 'date-time',
    example: '2025-11-22T10:15:30.123Z',
  })
  expiresAt: string;

  @ApiProperty({
    description:
      'When the replaced key was last used (recorded at most once a minute), or null: tells whether clients still use it.',
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2025-11-21T11:02:00.000Z',
  })
  lastUsedAt: string | null;
}

/** A form as the API shows it: never the key hash or its encrypted copy. */
export class FormResponseDto {
  @ApiProperty({
    description: 'Public form identifier, used in `POST /api/submit/{formId}`.',
    example: EXAMPLE_FORM_ID,
  })
  id: string;

  @ApiProperty({ example: 'Contact' })
  name: string;

  @ApiProperty({
    type: [FieldDefinitionResponseDto],
    example: [
      { id: 'name', type: 'text', label: 'Name', required: true },
      { id: 'email', type: 'email', label: 'Email', required: true },
    ],
  })
  fields: FieldDefinitionResponseDto[];

  @ApiProperty({ example: false })
  domainVerification: boolean;

  @ApiProperty({
    description:
      'Where a browser that posted the form natively is sent after a success (303), or null for the thank-you page.',
    type: String,
    nullable: true,
    example: 'https://www.example.com/thanks',
  })
  redirectUrl: string | null;

  @ApiProperty({
    description:
      "The thank-you page's text for a native form post, or null for the default.",
    type: String,
    nullable: true,
    example: 'Thank you! We will answer within two working days.',
  })
  successMessage: string | null;

  @ApiProperty({
    description:
      'How many days a submission is kept before a background sweep deletes it (spam included, with its deliveries), or null to keep submissions until deleted.',
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: 3650,
    example: 365,
  })
  retentionDays: number | null;

  @ApiProperty({
    description:
      'Addresses told of every submission by email once confirmed (lower-cased).',
    type: [String],
    example: ['owner@example.com', 'sales@example.com'],
  })
  notifyEmails: string[];

  @ApiProperty({
    description:
      'The state of each address of `notifyEmails`: `pending` until its owner has opened the link mailed to it and selected Confirm (nothing else is sent to it meanwhile), then `confirmed` for every form of the account.',
    type: 'object',
    additionalProperties: { type: 'string', enum: ['confirmed', 'pending'] },
    example: {
      'owner@example.com': 'confirmed',
      'sales@example.com': 'pending',
    },
  })
  notifyEmailStatus: Record<string, 'confirmed' | 'pending'>;

  @ApiProperty({
    description:
      'The CAPTCHA submissions must pass, or null for none. The provider secret is never shown.',
    type: CaptchaResponseDto,
    nullable: true,
  })
  captcha: CaptchaResponseDto | null;

  @ApiProperty({
    description:
      'The mail sent back to whoever submitted (your subject and text only), or null for none.',
    type: AutoresponseResponseDto,
    nullable: true,
  })
  autoresponse: AutoresponseResponseDto | null;

  @ApiProperty({
    description:
      'The content rules: submissions they catch go to the spam folder, unnotified.',
    type: SpamFilterResponseDto,
  })
  spamFilter: SpamFilterResponseDto;

  @ApiProperty({
    description:
      "The pending addresses whose confirmation message could not be sent, each with why (the mail server's answer, or why it could not be reached). Saving the form's `notifyEmails` again (unchanged is fine) sends those addresses a new link. `{}` when every message went out.",
    type: 'object',
    additionalProperties: { type: 'string' },
    example: {
      'sales@example.com':
        'Could not reach the mail server: certificate has expired',
    },
  })
  notifyEmailErrors: Record<string, string>;

  @ApiProperty({
    description:
      "The first characters of the form's API key, to tell keys apart; not usable as a key.",
    example: 'fgk_Zx81Qa0d',
  })
  apiKeyPrefix: string;

  @ApiProperty({
    description:
      'When the current key was last used on the API (recorded at most once a minute), or null if never.',
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2025-11-21T10:15:30.123Z',
  })
  apiKeyLastUsedAt: string | null;

  @ApiPropertyOptional({
    description:
      'When the form key stops working (403 "API key expired"); present only for a key created or rotated by a key that expires itself, which it never outlives.',
    type: String,
    format: 'date-time',
    example: '2026-12-31T23:59:59.000Z',
  })
  apiKeyExpiresAt?: string;

  @ApiProperty({
    description:
      'After a rotation with `graceSeconds`, the replaced key that is still accepted until `expiresAt`; null otherwise.',
    type: () => PreviousApiKeyDto,
    nullable: true,
  })
  previousApiKey: PreviousApiKeyDto | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    example: '2025-11-21T10:15:30.123Z',
  })
  createdAt: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    example: '2025-11-21T10:15:30.123Z',
  })
  updatedAt: string;

  @ApiPropertyOptional({
    description:
      'Present when the form needs attention, e.g. domain verification is on but no domain is verified yet (only development hosts can then submit). Not included in lists.',
    example:
      'Domain verification is on but no domain is verified yet: only development hosts (localhost, 127.0.0.1, 192.168.x.x) can submit.',
  })
  warning?: string;
}

/** The answer to creating a form: the only response besides regeneration that carries the key. */
export class CreatedFormResponseDto extends FormResponseDto {
  @ApiProperty({
    description:
      "The form's API key. Keep it secret: send it in the `x-api-key` header. The dashboard shows it again on the form's page.",
    example: 'fgk_Zx81Qa0dW3n9uVt2kLmC5pYbR7sE1hJ4oFgD6iXzA0c',
  })
  apiKey: string;
}

export class FormListResponseDto {
  @ApiProperty({ type: [FormResponseDto] })
  data: FormResponseDto[];
}

export class ApiKeyResponseDto {
  @ApiProperty({
    description:
      'The new API key of the form. The previous key no longer works, unless `graceSeconds` kept it valid for a while (see `previousApiKey` of the form).',
    example: 'fgk_Zx81Qa0dW3n9uVt2kLmC5pYbR7sE1hJ4oFgD6iXzA0c',
  })
  apiKey: string;
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsString,
  Length,
  Matches,
  ValidateIf,
} from 'class-validator';
import {
  MAX_AUTORESPONSE_SUBJECT,
  MAX_AUTORESPONSE_TEXT,
} from '../settings/autoresponse-settings.js';
import { Required } from '../validators/form-validators.js';

// Checks run bottom-up (see field-definition.dto.ts).

/** Control characters other than tab and line breaks: refused in the owner's text. */
// oxlint-disable-next-line no-control-regex -- the rule is about control characters
const PLAIN_TEXT = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;
// oxlint-disable-next-line no-control-regex -- the rule is about control characters
const ONE_LINE = /^[^\u0000-\u001f\u007f]*$/;

/** The mail sent back to whoever submitted the form (docs/notifications.md). */
export class AutoresponseDto {
  @ApiProperty({
    description:
      'Whether the mail is sent. It can be turned on only on a form with a CAPTCHA: a visitor can type anyone’s address, and the CAPTCHA makes each mail cost a person’s effort.',
    example: true,
  })
  @IsBoolean({ message: '$property must be true or false' })
  @Required()
  enabled: boolean;

  @ApiProperty({
    description:
      'The id of the form’s `email` field whose value is the address the mail goes to.',
    example: 'email',
  })
  @Length(1, 64, { message: '$property must be a field id' })
  @IsString({ message: '$property must be a string' })
  @Required()
  emailField: string;

  @ApiProperty({
    description:
      'The subject, your words only: no value of the submission is ever put in the mail.',
    maxLength: MAX_AUTORESPONSE_SUBJECT,
    example: 'We got your message',
  })
  @Matches(ONE_LINE, {
    message: '$property must be one line of text',
  })
  @Length(1, MAX_AUTORESPONSE_SUBJECT, {
    message: `$property must be 1 to ${MAX_AUTORESPONSE_SUBJECT} characters long`,
  })
  @IsString({ message: '$property must be a string' })
  @Required()
  subject: string;

  @ApiProperty({
    description: 'The message, plain text, your words only.',
    maxLength: MAX_AUTORESPONSE_TEXT,
    example: 'Thank you for writing. We answer within two working days.',
  })
  @Matches(PLAIN_TEXT, {
    message: '$property must be plain text (no control characters)',
  })
  @Length(1, MAX_AUTORESPONSE_TEXT, {
    message: `$property must be 1 to ${MAX_AUTORESPONSE_TEXT} characters long`,
  })
  @IsString({ message: '$property must be a string' })
  @Required()
  text: string;

  @ApiPropertyOptional({
    description:
      'Where answers to the mail go: one of the form’s confirmed `notifyEmails`, or null for none.',
    type: String,
    nullable: true,
    example: 'team@example.com',
  })
  @ValidateIf((_o, value) => value !== undefined && value !== null)
  @IsString({ message: '$property must be an email address or null' })
  replyTo?: string | null;
}

export class AutoresponseResponseDto {
  @ApiProperty({ example: true })
  enabled: boolean;

  @ApiProperty({ example: 'email' })
  emailField: string;

  @ApiProperty({ example: 'We got your message' })
  subject: string;

  @ApiProperty({
    example: 'Thank you for writing. We answer within two working days.',
  })
  text: string;

  @ApiProperty({ type: String, nullable: true, example: null })
  replyTo: string | null;
}

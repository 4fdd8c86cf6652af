import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  Equals,
  IsIn,
  IsNumber,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';
import {
  CAPTCHA_GRACE_DAYS,
  CAPTCHA_PROVIDERS,
  DEFAULT_MIN_SCORE,
  type CaptchaProvider,
} from '../settings/spam-settings.js';
import { Optional, Required } from '../validators/form-validators.js';

export const MAX_SITE_KEY_LENGTH = 200;
export const MAX_SECRET_LENGTH = 500;
export const MAX_ACTION_LENGTH = 100;
/** What reCAPTCHA allows in an action name. */
const ACTION_PATTERN = /^[A-Za-z0-9_/]+$/;

const trimmed = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim() : value;

/** Checked only for the three third-party providers (and refused by the service for ALTCHA). */
const ForThirdParty = () =>
  ValidateIf(
    (captcha: { provider?: unknown }, value: unknown) =>
      value !== undefined && captcha.provider !== 'altcha',
  );

// Checks run bottom-up (see field-definition.dto.ts).

/** The CAPTCHA a form's submissions must pass, as written. */
export class CaptchaDto {
  @ApiProperty({
    enum: CAPTCHA_PROVIDERS,
    description:
      '`altcha`: proof of work served by this service, no third party (load `/static/altcha/altcha.js` and add `<altcha-widget>`, see docs/spam.md). `turnstile` (Cloudflare), `hcaptcha`, `recaptcha` (Google, v2 or v3): verified with the provider using `secret`.',
    example: 'altcha',
  })
  @IsIn(CAPTCHA_PROVIDERS, {
    message: `$property must be one of: ${CAPTCHA_PROVIDERS.join(', ')}`,
  })
  @Required()
  provider: CaptchaProvider;

  @ApiPropertyOptional({
    description:
      "The provider's public site key, for the widget on your page (shown in the dashboard's snippets; hCaptcha also checks it). Not used by `altcha`.",
    maxLength: MAX_SITE_KEY_LENGTH,
    example: '0x4AAAAAAABkMYinukE8nzY',
  })
  @Length(1, MAX_SITE_KEY_LENGTH, {
    message: `$property must be 1 to ${MAX_SITE_KEY_LENGTH} characters long`,
  })
  @IsString({ message: '$property must be a string' })
  @ForThirdParty()
  @Transform(trimmed)
  siteKey?: string;

  @ApiPropertyOptional({
    description:
      "The provider's secret key, used to verify each token. Write-only: never shown again (`secretSet` says it is stored). Required when choosing a third-party provider; may be left out to keep the stored secret of the same provider.",
    maxLength: MAX_SECRET_LENGTH,
    writeOnly: true,
    example: '0x4AAAAAAABkMYinukE8nzYS-secret',
  })
  @Length(1, MAX_SECRET_LENGTH, {
    message: `$property must be 1 to ${MAX_SECRET_LENGTH} characters long`,
  })
  @IsString({ message: '$property must be a string' })
  @ForThirdParty()
  @Transform(trimmed)
  secret?: string;

  @ApiPropertyOptional({
    description: `reCAPTCHA v3 only: tokens scoring below this fail (${DEFAULT_MIN_SCORE} when omitted).`,
    minimum: 0,
    maximum: 1,
    example: DEFAULT_MIN_SCORE,
  })
  @Max(1, { message: '$property must be at most 1' })
  @Min(0, { message: '$property must be at least 0' })
  @IsNumber(
    { allowNaN: false, allowInfinity: false },
    { message: '$property must be a number' },
  )
  @Optional()
  minScore?: number;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: `Only \`null\` is accepted: ends the grace period now (see \`graceUntil\` of the form's \`captcha\`), or, sent while switching the CAPTCHA on, starts none, so posts without an answer are refused from the first. Left out, switching a CAPTCHA on starts a grace of ${CAPTCHA_GRACE_DAYS} days and a change keeps the current one.`,
    example: null,
  })
  @Equals(null, {
    message: '$property can only be null (ends the grace period)',
  })
  @Optional()
  graceUntil?: null;

  @ApiPropertyOptional({
    description:
      'reCAPTCHA v3 only: the action your page passes to `grecaptcha.execute` (e.g. `submit`). A token made for another action fails. Left out: any action.',
    minLength: 1,
    maxLength: MAX_ACTION_LENGTH,
    pattern: ACTION_PATTERN.source,
    example: 'submit',
  })
  @Matches(ACTION_PATTERN, {
    message: '$property may hold only letters, digits, "_" and "/"',
  })
  @Length(1, MAX_ACTION_LENGTH, {
    message: `$property must be 1 to ${MAX_ACTION_LENGTH} characters long`,
  })
  @IsString({ message: '$property must be a string' })
  @Optional()
  action?: string;
}

/** A form's CAPTCHA as the API shows it: never the secret. */
export class CaptchaResponseDto {
  @ApiProperty({ enum: CAPTCHA_PROVIDERS, example: 'turnstile' })
  provider: CaptchaProvider;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '0x4AAAAAAABkMYinukE8nzY',
  })
  siteKey: string | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: `reCAPTCHA v3: the lowest passing score (null: ${DEFAULT_MIN_SCORE}).`,
    example: null,
  })
  minScore: number | null;

  @ApiPropertyOptional({
    description:
      'reCAPTCHA v3: the action a token must have been made for; absent when any action passes.',
    example: 'submit',
  })
  action?: string;

  @ApiProperty({
    description:
      "true when the provider's secret is stored (always for the third-party providers; ALTCHA needs none).",
    example: true,
  })
  secretSet: boolean;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: `Until when a post with no CAPTCHA answer at all is kept in the spam folder (reason \`captcha-missing\`, never notified) instead of refused: ${CAPTCHA_GRACE_DAYS} days after the CAPTCHA was switched on, so pages deployed without the widget lose nothing meanwhile. A wrong, expired or used answer is refused all the same. null: no grace (the form was created with its CAPTCHA, the grace ran out, or the owner ended it with \`captcha.graceUntil: null\`).`,
    example: '2025-11-28T10:15:30.123Z',
  })
  graceUntil: string | null;
}

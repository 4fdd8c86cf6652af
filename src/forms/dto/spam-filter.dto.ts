import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsString,
  Length,
  Matches,
  Max,
  Min,
} from 'class-validator';
import { DEFAULT_SPAM_FILTER } from '../settings/spam-settings.js';
import { Optional } from '../validators/form-validators.js';

export const MAX_LINKS_LIMIT = 1000;
export const MAX_BLOCKED_WORDS = 200;
export const MAX_BLOCKED_WORD_LENGTH = 100;

const trimmedEntries = ({ value }: { value: unknown }) =>
  Array.isArray(value)
    ? value.map((entry: unknown) =>
        typeof entry === 'string' ? entry.trim() : entry,
      )
    : value;

// Checks run bottom-up (see field-definition.dto.ts).

/**
 * The content rules of a form, as written: on create and replace an omitted property
 * takes its default, on PATCH it keeps its current value.
 */
export class SpamFilterDto {
  @ApiPropertyOptional({
    description:
      'Apply the content rules. Submissions they catch are stored in the spam folder and answered like any other (a bot learns nothing), without notifications.',
    default: DEFAULT_SPAM_FILTER.enabled,
    example: true,
  })
  @IsBoolean({ message: '$property must be true or false' })
  @Optional()
  enabled?: boolean;

  @ApiPropertyOptional({
    description:
      'A submission with more links than this (`http://`, `https://` or `www.` ones, across all its values; bare domains and email addresses do not count) is spam (`too-many-links`).',
    default: DEFAULT_SPAM_FILTER.maxLinks,
    minimum: 0,
    maximum: MAX_LINKS_LIMIT,
    example: 5,
  })
  @Max(MAX_LINKS_LIMIT, {
    message: `$property must be at most ${MAX_LINKS_LIMIT}`,
  })
  @Min(0, { message: '$property must be at least 0' })
  @IsInt({ message: '$property must be a whole number' })
  @Optional()
  maxLinks?: number;

  @ApiPropertyOptional({
    description:
      'Words or phrases (trimmed) that make a submission spam (`blocked-word`) when a value contains one as whole words, compared case-insensitively; punctuation counts as a space (`e-mail` matches "e mail").',
    type: [String],
    default: [],
    maxItems: MAX_BLOCKED_WORDS,
    example: ['casino', 'crypto giveaway'],
  })
  @Matches(/[\p{L}\p{N}]/u, {
    each: true,
    message: 'each entry of $property must contain a letter or a digit',
  })
  @Length(1, MAX_BLOCKED_WORD_LENGTH, {
    each: true,
    message: `each entry of $property must be 1 to ${MAX_BLOCKED_WORD_LENGTH} characters long`,
  })
  @IsString({ each: true, message: 'each entry of $property must be a string' })
  @ArrayMaxSize(MAX_BLOCKED_WORDS, {
    message: `$property must have at most ${MAX_BLOCKED_WORDS} entries`,
  })
  @IsArray({ message: '$property must be an array of strings' })
  @Optional()
  @Transform(trimmedEntries)
  blockedWords?: string[];

  @ApiPropertyOptional({
    description:
      'Take the same data from the same IP address for the same form within 10 minutes for spam (`duplicate`). Off by default: a client that retries should send an `Idempotency-Key` instead.',
    default: DEFAULT_SPAM_FILTER.duplicates,
    example: false,
  })
  @IsBoolean({ message: '$property must be true or false' })
  @Optional()
  duplicates?: boolean;
}

/** The content rules of a form as the API shows them: every property, defaults filled in. */
export class SpamFilterResponseDto {
  @ApiProperty({ example: true })
  enabled: boolean;

  @ApiProperty({ example: 5 })
  maxLinks: number;

  @ApiProperty({ type: [String], example: [] })
  blockedWords: string[];

  @ApiProperty({ example: false })
  duplicates: boolean;
}

import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { SubmissionRangeQueryDto } from './submission-range-query.dto.js';
import {
  SUBMISSION_STATUSES,
  type SubmissionStatus,
} from '../submission.entity.js';

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

export class SearchQueryDto extends SubmissionRangeQueryDto {
  @ApiPropertyOptional({
    description:
      'Case-insensitive text search: keeps submissions where some submitted value contains this text (field names are not searched). ' +
      'A search examines at most 10,000 submissions per request, so a page may hold fewer than `limit` items (even none) while `nextCursor` is set: keep following it until it is null. Omit it to list every submission.',
    maxLength: 200,
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  q?: string;

  @ApiPropertyOptional({
    enum: SUBMISSION_STATUSES,
    description: 'Only submissions of this status.',
  })
  @IsOptional()
  @IsIn(SUBMISSION_STATUSES, {
    message: `status must be one of ${SUBMISSION_STATUSES.join(', ')}`,
  })
  status?: SubmissionStatus;

  @ApiPropertyOptional({
    description:
      "Only submissions assigned to this member (their `userId`), or `none`: nobody's.",
    maxLength: 32,
  })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  assignee?: string;

  @ApiPropertyOptional({
    description:
      'Only submissions with this label (its name; a name the account has not matches none).',
    maxLength: 40,
  })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  label?: string;
}

export class ListSubmissionsQueryDto extends SearchQueryDto {
  @ApiPropertyOptional({
    type: Number,
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: DEFAULT_PAGE_SIZE,
    description: 'Page size.',
  })
  @IsOptional()
  @Type(() => Number)
  // Declared last so it is checked first: "abc" is reported as not an integer.
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  @IsInt()
  limit?: number;

  @ApiPropertyOptional({
    description:
      "The previous page's `nextCursor`, unchanged. Omit it for the first (newest) page.",
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  cursor?: string;
}

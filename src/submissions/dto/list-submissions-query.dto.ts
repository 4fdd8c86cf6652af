import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { SubmissionRangeQueryDto } from './submission-range-query.dto.js';

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

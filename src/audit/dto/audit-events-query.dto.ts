import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';

export const DEFAULT_AUDIT_PAGE_SIZE = 50;
export const MAX_AUDIT_PAGE_SIZE = 200;

/** The filters of the list and the export. */
export class AuditFiltersQueryDto {
  @ApiPropertyOptional({
    description:
      'Only events whose action starts with this: `member.` for every member event, `form.updated` for one action (docs/audit.md lists them).',
    maxLength: 64,
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  @Matches(/^[a-z_.]+$/, {
    message: 'action must be lower-case letters, dots and underscores',
  })
  action?: string;

  @ApiPropertyOptional({
    description:
      "Only events by this actor: a member's user id or an account key's id (a form key: its form's id).",
    maxLength: 64,
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  actorId?: string;

  @ApiPropertyOptional({
    description:
      'Only events about this target (a form id, a key id, a user id…).',
    maxLength: 64,
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  targetId?: string;

  @ApiPropertyOptional({
    description:
      'Only events at or after this instant (ISO 8601, such as `2026-12-01` or `2026-12-01T12:00:00Z`).',
  })
  @IsOptional()
  @IsISO8601(
    { strict: true },
    { message: 'from must be an ISO 8601 date or date-time' },
  )
  from?: string;

  @ApiPropertyOptional({
    description: 'Only events before this instant (exclusive; ISO 8601).',
  })
  @IsOptional()
  @IsISO8601(
    { strict: true },
    { message: 'to must be an ISO 8601 date or date-time' },
  )
  to?: string;
}

export class ListAuditEventsQueryDto extends AuditFiltersQueryDto {
  @ApiPropertyOptional({
    type: Number,
    minimum: 1,
    maximum: MAX_AUDIT_PAGE_SIZE,
    description: `Page size (${DEFAULT_AUDIT_PAGE_SIZE} when omitted).`,
  })
  @IsOptional()
  @Type(() => Number)
  @Min(1)
  @Max(MAX_AUDIT_PAGE_SIZE)
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

import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { SearchQueryDto } from './list-submissions-query.dto.js';

export const EXPORT_FORMATS = ['csv', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export class ExportSubmissionsQueryDto extends SearchQueryDto {
  @ApiPropertyOptional({
    enum: EXPORT_FORMATS,
    default: 'csv',
    description:
      '`csv` (RFC 4180, CRLF, formula-neutralised) or `ndjson` (one Submission JSON object per line).',
    example: 'csv',
  })
  @IsOptional()
  @IsIn(EXPORT_FORMATS)
  format?: ExportFormat;
}

import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { SearchQueryDto } from './list-submissions-query.dto.js';
import { queryBoolean } from './submission-range-query.dto.js';

export const EXPORT_FORMATS = ['csv', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export class ExportSubmissionsQueryDto extends SearchQueryDto {
  @ApiPropertyOptional({
    enum: EXPORT_FORMATS,
    default: 'csv',
    description:
      '`csv` (RFC 4180, CRLF, formula-neutralised; an uploaded file is its name and a signed download link valid 7 days) or `ndjson` (one Submission JSON object per line).',
    example: 'csv',
  })
  @IsOptional()
  @IsIn(EXPORT_FORMATS)
  format?: ExportFormat;

  @ApiPropertyOptional({
    type: Boolean,
    description:
      'CSV only: start the file with a UTF-8 byte order mark, so that Microsoft Excel shows accented and non-Latin text correctly when the file is opened by double-click. Other programs do not need it.',
  })
  @IsOptional()
  @Transform(queryBoolean)
  @IsBoolean()
  bom?: boolean;
}

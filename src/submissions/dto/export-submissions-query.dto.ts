import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
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

  @ApiPropertyOptional({
    type: Boolean,
    description:
      'CSV only: start the file with a UTF-8 byte order mark, so that Microsoft Excel shows accented and non-Latin text correctly when the file is opened by double-click. Other programs do not need it.',
  })
  @IsOptional()
  // Query values are text: "true"/"1" and "false"/"0" are the booleans.
  @Transform(({ value }: { value: unknown }) =>
    value === 'true' || value === '1'
      ? true
      : value === 'false' || value === '0'
        ? false
        : value,
  )
  @IsBoolean()
  bom?: boolean;
}

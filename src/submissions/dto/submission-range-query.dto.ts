import { ApiHideProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Allow, IsBoolean, IsOptional, ValidateBy } from 'class-validator';
import {
  INSTANT_FORMAT_HINT,
  parseInstant,
} from '../queries/submission-filters.js';

/** An ISO 8601 date or date-time (UTC unless it names a zone). */
export function IsInstant(): PropertyDecorator {
  return ValidateBy({
    name: 'isInstant',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && parseInstant(value) !== undefined,
      defaultMessage: (args) =>
        `${args?.property} must be ${INSTANT_FORMAT_HINT}`,
    },
  });
}

/** Query values are text: "true"/"1" and "false"/"0" are the booleans. */
export const queryBoolean = ({ value }: { value: unknown }): unknown =>
  value === 'true' || value === '1'
    ? true
    : value === 'false' || value === '0'
      ? false
      : value;

/** `from`/`to` bounds on createdAt and the folder, shared by list, export and bulk delete. */
export class SubmissionRangeQueryDto {
  @ApiPropertyOptional({
    type: Boolean,
    description:
      '`true`: only the spam folder. Omitted (or `false`): only submissions that are not spam.',
  })
  @IsOptional()
  @Transform(queryBoolean)
  @IsBoolean({ message: '$property must be true or false' })
  spam?: boolean;

  @ApiPropertyOptional({
    description:
      'Only submissions created at or after this instant (inclusive). ISO 8601 date or date-time such as `2025-05-01` or `2025-05-01T12:00:00Z`; UTC unless a zone is given. Omit it for no lower bound.',
  })
  @IsOptional()
  @IsInstant()
  from?: string;

  @ApiPropertyOptional({
    description:
      'Only submissions created before this instant (exclusive), so `to=2025-06-01` ends with the last of May 31. ISO 8601; UTC unless a zone is given. Omit it for no upper bound.',
  })
  @IsOptional()
  @IsInstant()
  to?: string;

  /** The key may travel as a query parameter (documented as a security scheme). */
  @ApiHideProperty()
  @Allow()
  apiKey?: unknown;
}

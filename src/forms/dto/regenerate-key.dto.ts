import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { BodyMayBeAbsent } from '../../common/http/validation.pipe.js';

/** The longest grace period of a rotated form key: 7 days. */
export const MAX_KEY_GRACE_SECONDS = 604_800;

/** The optional body of `POST /api/v1/forms/:id/api-key`. */
@BodyMayBeAbsent()
export class RegenerateKeyDto {
  @ApiPropertyOptional({
    description:
      'How long the replaced key keeps working, in seconds (0 to 604800, i.e. 7 days). 0, the default, refuses it at once; more lets clients move to the new key without downtime.',
    minimum: 0,
    maximum: MAX_KEY_GRACE_SECONDS,
    default: 0,
    example: 86_400,
  })
  // Checks run bottom-up: a whole number first, then its range.
  @Max(MAX_KEY_GRACE_SECONDS, { message: 'graceSeconds must be 0 to 604800' })
  @Min(0, { message: 'graceSeconds must be 0 to 604800' })
  @IsInt({ message: 'graceSeconds must be a whole number of seconds' })
  @IsOptional()
  graceSeconds?: number;
}

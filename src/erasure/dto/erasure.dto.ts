import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsOptional,
  IsString,
  Validate,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { isEmailAddress } from '../../common/values/email-address.js';
import { normalizeAddress } from '../address-match.js';

export const EMAIL_INVALID = 'email must be a valid email address';

@ValidatorConstraint({ name: 'plausibleEmail' })
class PlausibleEmail implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && isEmailAddress(value);
  }

  defaultMessage(): string {
    return EMAIL_INVALID;
  }
}

const normalized = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? normalizeAddress(value) : value;

const EMAIL_DESCRIPTION =
  'The address of the person the data is about. A submission matches when one of its values (any field, free text included) is this address or contains it as a whole word, ignoring case: `Write to Ada@Example.com` matches `ada@example.com`; `grandada@example.com` and `ada@example.com.au` do not.';

/** The body of `POST /api/v1/erasure`. */
export class ErasureRequestDto {
  @ApiProperty({ description: EMAIL_DESCRIPTION, example: 'ada@example.com' })
  // Checks run bottom-up: present, a string, then an address.
  @Validate(PlausibleEmail)
  @IsString({ message: EMAIL_INVALID })
  @IsDefined({ message: 'email is required' })
  @Transform(normalized)
  email: string;

  // No `default` in the schema: generated clients would make a defaulted property required.
  @ApiPropertyOptional({
    description:
      'Only count what would be deleted; nothing is deleted. Default false.',
    example: true,
  })
  @IsOptional()
  @IsBoolean({ message: 'dryRun must be true or false' })
  dryRun?: boolean;
}

/** The query of `GET /api/v1/erasure/export`. */
export class ErasureExportQueryDto {
  // No example: Swagger UI would pre-fill it and ask about someone who is not there.
  @ApiProperty({ description: EMAIL_DESCRIPTION })
  @Validate(PlausibleEmail)
  @IsString({ message: EMAIL_INVALID })
  @IsDefined({ message: 'email is required' })
  @Transform(normalized)
  email: string;
}

export class ErasureResultDto {
  @ApiProperty({
    description:
      'Submissions deleted (with `dryRun`: that would be), with their notification deliveries and files.',
    example: 3,
  })
  deleted: number;

  @ApiProperty({
    description: 'Forms that had at least one of them.',
    example: 2,
  })
  forms: number;
}

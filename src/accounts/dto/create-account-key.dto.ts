import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsIn,
  IsOptional,
  IsString,
  Length,
} from 'class-validator';
import { KEY_ROLES, type KeyRole } from '../../auth/permissions.js';
import { EXPIRES_AT_FORMAT } from '../key-expiry.js';

/** The body of `POST /api/v1/account/keys`. */
export class CreateAccountKeyDto {
  @ApiProperty({
    description: 'What uses the key, e.g. "CRM sync" (1 to 100 characters).',
    minLength: 1,
    maxLength: 100,
    example: 'Reporting job',
  })
  // Checks run bottom-up: present, then a string, then its length.
  @Length(1, 100, { message: 'name must be 1 to 100 characters long' })
  @IsString({ message: 'name must be a string' })
  @IsDefined({ message: 'name is required' })
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.trim() : value,
  )
  name: string;

  @ApiPropertyOptional({
    description:
      'What the key may do (docs/teams.md): at most the role of the key creating it; never `owner`. Default `developer`.',
    enum: KEY_ROLES,
    default: 'developer',
    example: 'editor',
  })
  @IsOptional()
  @IsIn(KEY_ROLES, { message: `role must be one of ${KEY_ROLES.join(', ')}` })
  role?: KeyRole;

  @ApiPropertyOptional({
    description:
      'The older name of the `viewer` role: a read-only key may only read. `true` is `role: "viewer"`; omitted, the role decides.',
    example: true,
  })
  @IsOptional()
  @IsBoolean({ message: 'readOnly must be true or false' })
  readOnly?: boolean;

  @ApiPropertyOptional({
    description:
      'When the key stops working (ISO 8601 with a time zone, in the future); omitted or null: never. A key that expires may only create keys that expire no later than itself.',
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2026-12-31T23:59:59.000Z',
  })
  @IsOptional()
  @IsString({ message: EXPIRES_AT_FORMAT })
  expiresAt?: string | null;
}

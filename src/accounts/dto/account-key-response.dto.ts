import { ApiProperty } from '@nestjs/swagger';
import { KEY_ROLES, type KeyRole } from '../../auth/permissions.js';

/** An account key as the API shows it: never its hash. */
export class AccountKeyResponseDto {
  @ApiProperty({ example: '01JD2W7Q4S3V9XKQ0R5T8N6M1B' })
  id: string;

  @ApiProperty({ example: 'Reporting job' })
  name: string;

  @ApiProperty({
    description: 'The first characters of the key, to tell keys apart.',
    example: 'fga_Zx81Qa0d',
  })
  prefix: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    example: '2025-11-21T10:15:30.123Z',
  })
  createdAt: string;

  @ApiProperty({
    description:
      'When the key was last used (recorded at most once a minute), or null if never.',
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2025-11-21T11:02:00.000Z',
  })
  lastUsedAt: string | null;

  @ApiProperty({
    description: 'What the key may do (docs/teams.md).',
    enum: KEY_ROLES,
    example: 'developer',
  })
  role: KeyRole;

  @ApiProperty({
    description:
      'true for a `viewer` key, which may only read (the older name of that role).',
    example: false,
  })
  readOnly: boolean;

  @ApiProperty({
    description:
      'From this moment on the key is refused (403 "API key expired"); null: never.',
    type: String,
    format: 'date-time',
    nullable: true,
    example: null,
  })
  expiresAt: string | null;
}

/** The answer to creating a key: the only time the key itself is shown. */
export class CreatedAccountKeyResponseDto extends AccountKeyResponseDto {
  @ApiProperty({
    description:
      'The key. Shown only in this answer (it is stored as a hash): keep it secret, on servers only.',
    example: 'fga_Zx81Qa0dW3n9uVt2kLmC5pYbR7sE1hJ4oFgD6iXzA0c',
  })
  apiKey: string;
}

export class AccountKeyListResponseDto {
  @ApiProperty({ type: [AccountKeyResponseDto] })
  data: AccountKeyResponseDto[];
}

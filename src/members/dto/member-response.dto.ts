import { ApiProperty } from '@nestjs/swagger';
import { ROLES, type Role } from '../../auth/permissions.js';

/** A member of the account as the API shows them. */
export class MemberResponseDto {
  @ApiProperty({ example: '01JD2W7Q4S3V9XKQ0R5T8N6M1B' })
  userId: string;

  @ApiProperty({ example: 'sam@example.com' })
  email: string;

  @ApiProperty({ enum: ROLES, example: 'editor' })
  role: Role;

  @ApiProperty({
    description: 'Whether the member signs in with a second factor.',
    example: false,
  })
  twoFactor: boolean;

  @ApiProperty({
    description: 'When they joined the account.',
    type: String,
    format: 'date-time',
    example: '2026-12-01T10:15:30.123Z',
  })
  createdAt: string;

  @ApiProperty({
    description: 'When they last signed in to the dashboard, or null if never.',
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2026-12-02T08:00:00.000Z',
  })
  lastSignInAt: string | null;
}

export class MemberListResponseDto {
  @ApiProperty({ type: [MemberResponseDto] })
  data: MemberResponseDto[];
}

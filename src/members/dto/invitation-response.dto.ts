import { ApiProperty } from '@nestjs/swagger';
import { ROLES, type Role } from '../../auth/permissions.js';

/** A pending invitation as the API shows it: never its link. */
export class InvitationResponseDto {
  @ApiProperty({ example: '01JD2W7Q4S3V9XKQ0R5T8N6M1B' })
  id: string;

  @ApiProperty({ example: 'sam@example.com' })
  email: string;

  @ApiProperty({ enum: ROLES, example: 'editor' })
  role: Role;

  @ApiProperty({
    description: 'When the link stops working (7 days after it was sent).',
    type: String,
    format: 'date-time',
    example: '2026-12-08T10:15:30.123Z',
  })
  expiresAt: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    example: '2026-12-01T10:15:30.123Z',
  })
  createdAt: string;

  @ApiProperty({
    description: "Who invited: the member's address, or the name of the key.",
    example: 'ada@example.com',
  })
  invitedBy: string;
}

export class InvitationListResponseDto {
  @ApiProperty({ type: [InvitationResponseDto] })
  data: InvitationResponseDto[];
}

import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsIn } from 'class-validator';
import { KEY_ROLES, type KeyRole } from '../../auth/permissions.js';

/** The body of `PATCH /api/v1/account/members/:userId`. */
export class UpdateMemberDto {
  @ApiProperty({
    description:
      "The member's new role: at most the key's own. Owners are made in the dashboard, by owners.",
    enum: KEY_ROLES,
    example: 'developer',
  })
  @IsIn(KEY_ROLES, {
    message: `role must be one of the following values: ${KEY_ROLES.join(', ')}`,
  })
  @IsDefined({ message: 'role is required' })
  role: KeyRole;
}

import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsDefined,
  IsIn,
  IsString,
  Validate,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { ROLES, type Role } from '../../auth/permissions.js';
import { isEmailAddress } from '../../common/values/email-address.js';

const EMAIL_INVALID = 'email must be a valid email address';

@ValidatorConstraint({ name: 'inviteeEmail' })
class InviteeEmail implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && isEmailAddress(value);
  }

  defaultMessage(): string {
    return EMAIL_INVALID;
  }
}

/** The body of `POST /api/v1/account/invitations`. */
export class CreateInvitationDto {
  @ApiProperty({
    description: 'Who to invite (stored lower-cased). They are mailed a link.',
    maxLength: 254,
    example: 'sam@example.com',
  })
  // Checks run bottom-up: present, a string, then an address.
  @Validate(InviteeEmail)
  @IsString({ message: EMAIL_INVALID })
  @IsDefined({ message: 'email is required' })
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.trim().toLowerCase() : value,
  )
  email: string;

  @ApiProperty({
    description:
      "The role they get on accepting: at most the key's own (so never owner over the API).",
    enum: ROLES,
    example: 'editor',
  })
  @IsIn(ROLES, {
    message: `role must be one of the following values: ${ROLES.join(', ')}`,
  })
  @IsDefined({ message: 'role is required' })
  role: Role;
}

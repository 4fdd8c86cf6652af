import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { Required } from '../../forms/validators/form-validators.js';

/** The body of `PATCH /api/v1/forms/:id/submissions/:submissionId`. */
export class UpdateSubmissionDto {
  @ApiProperty({
    description:
      '`false` moves the submission out of the spam folder and then notifies it as if it had just arrived (once, however often this is repeated); `true` moves it into the spam folder.',
    example: false,
  })
  @IsBoolean({ message: '$property must be true or false' })
  @Required()
  spam: boolean;
}

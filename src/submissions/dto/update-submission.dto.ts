import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';
import { SUBMISSION_STATUSES } from '../submission.entity.js';
import type { SubmissionStatus } from '../submission.entity.js';

/** Labels one request may name. */
export const MAX_LABELS_PER_CHANGE = 50;

/** What the inbox sets on submissions: PATCH one's body, and the bulk body's `set`. */
export class InboxSetDto {
  @ApiPropertyOptional({
    enum: SUBMISSION_STATUSES,
    description: 'The new status.',
    example: 'closed',
  })
  @IsOptional()
  @IsIn(SUBMISSION_STATUSES, {
    message: `status must be one of ${SUBMISSION_STATUSES.join(', ')}`,
  })
  status?: SubmissionStatus;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      "The `userId` of a member of the form's account (`GET /api/v1/account/members`), or null for nobody. Someone assigned by another member or a key is mailed, unless they turned that off.",
    example: '01JNMZ6Q0S8V7K2D3F4G5H6J7K',
  })
  @IsOptional()
  @IsString({ message: 'assigneeId must be a user id or null' })
  @MaxLength(32, { message: 'assigneeId must be a user id or null' })
  assigneeId?: string | null;
}

/** The body of `PATCH /api/v1/forms/:id/submissions/:submissionId`. */
export class UpdateSubmissionDto extends InboxSetDto {
  @ApiPropertyOptional({
    description:
      '`false` moves the submission out of the spam folder and then notifies it as if it had just arrived (once, however often this is repeated); `true` moves it into the spam folder.',
    example: false,
  })
  @IsOptional()
  @IsBoolean({ message: '$property must be true or false' })
  spam?: boolean;

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_LABELS_PER_CHANGE,
    description:
      "The labels it then has, by name: the account's labels only (an unknown name → 400; make labels with `POST /api/v1/account/labels`). `[]` takes every label off.",
    example: ['lead'],
  })
  @IsOptional()
  @IsArray({ message: 'labels must be a list of label names' })
  @ArrayMaxSize(MAX_LABELS_PER_CHANGE)
  @IsString({ each: true, message: 'labels must be a list of label names' })
  @MaxLength(40, {
    each: true,
    message: 'a label name has at most 40 characters',
  })
  labels?: string[];
}

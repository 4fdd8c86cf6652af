import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { SUBMISSION_STATUSES } from '../submission.entity.js';
import type { SubmissionStatus } from '../submission.entity.js';
import { InboxSetDto, MAX_LABELS_PER_CHANGE } from './update-submission.dto.js';

/** Ids one bulk request may list. */
export const MAX_BULK_IDS = 500;

export class BulkSetDto extends InboxSetDto {
  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_LABELS_PER_CHANGE,
    description: 'Labels to put on each (by name; existing labels only).',
    example: ['lead'],
  })
  @IsOptional()
  @IsArray({ message: 'addLabels must be a list of label names' })
  @ArrayMaxSize(MAX_LABELS_PER_CHANGE)
  @IsString({ each: true, message: 'addLabels must be a list of label names' })
  @MaxLength(40, { each: true })
  addLabels?: string[];

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_LABELS_PER_CHANGE,
    description: 'Labels to take off each (by name).',
    example: ['later'],
  })
  @IsOptional()
  @IsArray({ message: 'removeLabels must be a list of label names' })
  @ArrayMaxSize(MAX_LABELS_PER_CHANGE)
  @IsString({
    each: true,
    message: 'removeLabels must be a list of label names',
  })
  @MaxLength(40, { each: true })
  removeLabels?: string[];
}

/** The list's own filters (GET …/submissions), to pick the submissions by. */
export class BulkFilterDto {
  @ApiPropertyOptional({ enum: SUBMISSION_STATUSES })
  @IsOptional()
  @IsIn(SUBMISSION_STATUSES, {
    message: `status must be one of ${SUBMISSION_STATUSES.join(', ')}`,
  })
  status?: SubmissionStatus;

  @ApiPropertyOptional({ description: "A member's `userId`, or `none`." })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  assignee?: string;

  @ApiPropertyOptional({ description: 'A label name.' })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  label?: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  q?: string;

  @ApiPropertyOptional({ description: "As the list's `from`." })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  from?: string;

  @ApiPropertyOptional({ description: "As the list's `to`." })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  to?: string;
}

/** The body of `POST /api/v1/forms/:id/submissions/bulk`: `ids` or `filter`, and `set`. */
export class BulkSubmissionsDto {
  @ApiPropertyOptional({
    type: [String],
    minItems: 1,
    maxItems: MAX_BULK_IDS,
    description: `Submission ids of the form (at most ${MAX_BULK_IDS}); ids it does not have are skipped.`,
  })
  @IsOptional()
  @IsArray({ message: 'ids must be a list of submission ids' })
  @ArrayMinSize(1, { message: 'ids must list at least one submission' })
  @ArrayMaxSize(MAX_BULK_IDS, {
    message: `ids must list at most ${MAX_BULK_IDS} submissions`,
  })
  @IsString({ each: true, message: 'ids must be a list of submission ids' })
  @MaxLength(32, {
    each: true,
    message: 'ids must be a list of submission ids',
  })
  ids?: string[];

  @ApiPropertyOptional({
    type: BulkFilterDto,
    description:
      'Instead of `ids`: every clean submission of the form the list would show with these query properties.',
  })
  @IsOptional()
  @IsObject({ message: 'filter must be an object' })
  @ValidateNested()
  @Type(() => BulkFilterDto)
  filter?: BulkFilterDto;

  @ApiProperty({ type: BulkSetDto, description: 'What to set on each.' })
  @IsDefined({ message: 'set is required' })
  @IsObject({ message: 'set must be an object' })
  @ValidateNested()
  @Type(() => BulkSetDto)
  set: BulkSetDto;
}

export class BulkResultDto {
  @ApiProperty({ description: 'How many submissions it changed.', example: 12 })
  updated: number;
}

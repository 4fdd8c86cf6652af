import { ApiProperty } from '@nestjs/swagger';
import { SPAM_REASONS } from '../../forms/settings/spam-settings.js';
import {
  SUBMISSION_STATUSES,
  type SubmissionData,
  type SubmissionStatus,
} from '../submission.entity.js';

/** An uploaded file as a submission's data shows it. */
const FILE_VALUE_SCHEMA = {
  type: 'object' as const,
  required: ['id', 'name', 'size', 'type', 'sha256'],
  properties: {
    id: {
      type: 'string' as const,
      description: 'The file id (for its download).',
    },
    name: { type: 'string' as const, description: 'The name the client gave.' },
    size: { type: 'integer' as const, description: 'Bytes.' },
    type: {
      type: 'string' as const,
      description: 'MIME type judged from the bytes and the extension.',
    },
    sha256: {
      type: 'string' as const,
      description: 'SHA-256 of the bytes, hex.',
    },
  },
};

export class SubmissionMetaDto {
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Client IP address the submission came from.',
    example: '203.0.113.7',
  })
  ip: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'User-Agent header of the submitting browser.',
    example: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0',
  })
  userAgent: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Origin (or else Referer) header of the submission.',
    example: 'https://www.example.com',
  })
  origin: string | null;
}

export class SubmissionAssigneeDto {
  @ApiProperty({
    description: 'User id of the member.',
    example: '01JNMZ6Q0S8V7K2D3F4G5H6J7K',
  })
  userId: string;

  @ApiProperty({
    description: "The member's address.",
    example: 'sam@example.com',
  })
  email: string;
}

export class SubmissionDto {
  @ApiProperty({
    description: 'Submission id (ULID: sortable by time).',
    example: '01JNMZ6Q0S8V7K2D3F4G5H6J7K',
  })
  id: string;

  @ApiProperty({
    description: 'Id of the form.',
    example: 'q2T9aY0bXk3LmN8pQr5sUw',
  })
  formId: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: {
      anyOf: [
        { type: 'string', nullable: true },
        { type: 'number' },
        { type: 'boolean' },
        FILE_VALUE_SCHEMA,
        { type: 'array', items: FILE_VALUE_SCHEMA },
      ],
    },
    description:
      'The submitted values, keyed by field id. A `file` field holds its file `{id, name, size, type, sha256}` (always a list when the field takes more than one); its bytes are at `/api/v1/forms/{id}/submissions/{submissionId}/files/{fileId}`.',
    example: {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      message: 'Hello!',
    },
  })
  data: SubmissionData;

  @ApiProperty({
    type: String,
    format: 'date-time',
    description: 'When the submission was stored (UTC, millisecond precision).',
    example: '2025-05-01T12:34:56.789Z',
  })
  createdAt: string;

  @ApiProperty({ type: SubmissionMetaDto })
  meta: SubmissionMetaDto;

  @ApiProperty({
    description:
      'In the spam folder: left out of lists and exports unless `spam=true` is asked for, and never notified while there.',
    example: false,
  })
  spam: boolean;

  @ApiProperty({
    type: [String],
    enum: SPAM_REASONS,
    description:
      "Why the submission is spam, `[]` when it is not: `captcha-unavailable` (the CAPTCHA provider did not answer), `captcha-missing` (no CAPTCHA answer at all, sent while the form's CAPTCHA was in its grace period), `too-many-links`, `blocked-word`, `duplicate`, `marked-by-owner`.",
    example: [],
  })
  spamReasons: string[];

  @ApiProperty({
    enum: SUBMISSION_STATUSES,
    description:
      '`new` until someone opens it in the dashboard (or sets a status), then `open`, then `closed` when handled.',
    example: 'new',
  })
  status: SubmissionStatus;

  @ApiProperty({
    type: SubmissionAssigneeDto,
    nullable: true,
    description: 'The member who handles it; null: nobody.',
  })
  assignee: SubmissionAssigneeDto | null;

  @ApiProperty({
    type: [String],
    description: "The names of the account's labels on it, by name.",
    example: ['lead'],
  })
  labels: string[];

  @ApiProperty({
    description: 'How many notes members wrote on it.',
    example: 0,
  })
  noteCount: number;
}

export class SubmissionPageDto {
  @ApiProperty({
    type: [SubmissionDto],
    description: 'Newest first: createdAt descending, then id descending.',
  })
  data: SubmissionDto[];

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Pass as `cursor` to get the next (older) page; null on the last page.',
    example: 'MTc0NjEwMjg5Njc4OTowMUpOTVo2UTBTOFY3SzJEM0Y0RzVINko3Sw',
  })
  nextCursor: string | null;
}

export class DeletedSubmissionsDto {
  @ApiProperty({
    description: 'How many submissions were deleted.',
    example: 42,
  })
  deleted: number;
}

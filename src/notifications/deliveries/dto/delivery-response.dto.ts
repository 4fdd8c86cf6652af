import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { DELIVERY_STATUSES } from '../delivery.entity.js';

export class DeliveryAttemptDto {
  @ApiProperty({ example: '2026-01-05T10:00:00.120Z' })
  at: string;

  @ApiProperty({ type: Number, nullable: true, example: 500 })
  statusCode: number | null;

  @ApiProperty({ type: String, nullable: true, example: 'HTTP 500' })
  error: string | null;

  @ApiProperty({ example: 84 })
  durationMs: number;
}

export class DeliveryResponseDto {
  @ApiProperty({
    description:
      'The delivery id; a webhook receives it as `webhook-id`, the same on every retry.',
    example: '01KAB3Q4R5S6T7V8W9X0Y1Z2A3',
  })
  id: string;

  @ApiProperty({
    enum: ['webhook', 'email', 'chat', 'autoresponse'],
    example: 'webhook',
  })
  channel: string;

  @ApiProperty({
    description:
      'The webhook id (webhook channel), the email address (email channel), the chat channel id (chat), or `form:<formId>` (autoresponse: the address is read from the submission).',
    example: 'Zk3q9v0bq1W2Lrj4m5n6oA',
  })
  target: string;

  @ApiProperty({
    example: 'submission.created',
    description: '`submission.created`, or `webhook.test` for a test delivery.',
  })
  event: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '01KAB3Q4R5S6T7V8W9X0Y1Z2A0',
  })
  submissionId: string | null;

  @ApiProperty({
    enum: DELIVERY_STATUSES,
    description:
      '`pending`: not tried yet; `failed`: the last try failed and another will follow; `succeeded`; `dead`: given up.',
    example: 'succeeded',
  })
  status: string;

  @ApiProperty({ example: 1 })
  attempts: number;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'When it is (or was last) due to be tried; null once it has succeeded or died.',
    example: null,
  })
  nextAttemptAt: string | null;

  @ApiProperty({ type: Number, nullable: true, example: 200 })
  lastStatusCode: number | null;

  @ApiProperty({ type: String, nullable: true, example: null })
  lastError: string | null;

  @ApiProperty({ type: Number, nullable: true, example: 84 })
  lastDurationMs: number | null;

  @ApiProperty({ example: '2026-01-05T10:00:00.000Z' })
  createdAt: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '2026-01-05T10:00:00.204Z',
  })
  deliveredAt: string | null;
}

export class DeliveryListResponseDto {
  @ApiProperty({ type: [DeliveryResponseDto] })
  data: DeliveryResponseDto[];

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Pass it as `cursor` for the next (older) page; null on the last page.',
  })
  nextCursor: string | null;
}

export const DEFAULT_DELIVERY_PAGE = 25;
export const MAX_DELIVERY_PAGE = 100;

export class ListDeliveriesQueryDto {
  @ApiPropertyOptional({
    type: Number,
    minimum: 1,
    maximum: MAX_DELIVERY_PAGE,
    default: DEFAULT_DELIVERY_PAGE,
    description: 'Page size.',
  })
  @IsOptional()
  @Type(() => Number)
  @Min(1)
  @Max(MAX_DELIVERY_PAGE)
  @IsInt()
  limit?: number;

  @ApiPropertyOptional({
    description:
      "The previous page's `nextCursor`, unchanged. Omit it for the first (newest) page.",
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  cursor?: string;
}

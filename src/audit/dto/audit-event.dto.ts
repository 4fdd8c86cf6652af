import { ApiProperty } from '@nestjs/swagger';
import { ACTOR_TYPES, type ActorType } from '../audit-actions.js';

export class AuditActorDto {
  @ApiProperty({ enum: ACTOR_TYPES })
  type: ActorType;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "The member's user id, the account key's id, the form's id for a form key; null for the CLI and the system.",
  })
  id: string | null;

  @ApiProperty({
    description: "The member's email, the key's prefix, `cli` or `system`.",
  })
  label: string;
}

export class AuditTargetDto {
  @ApiProperty({ example: 'form' })
  type: string;

  @ApiProperty({ type: String, nullable: true })
  id: string | null;
}

export class AuditEventDto {
  @ApiProperty({ description: 'ULID.' })
  id: string;

  @ApiProperty({ description: 'When it happened (ISO 8601, UTC).' })
  at: string;

  @ApiProperty({ type: AuditActorDto })
  actor: AuditActorDto;

  @ApiProperty({
    description: 'What happened (docs/audit.md lists them).',
    example: 'form.updated',
  })
  action: string;

  @ApiProperty({ type: AuditTargetDto })
  target: AuditTargetDto;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'What changed: `{property: {before, after}}`, a secret only as `"changed"`; or what the action was about (a count, a format).',
  })
  details: Record<string, unknown>;

  @ApiProperty({ type: String, nullable: true })
  ip: string | null;

  @ApiProperty({ type: String, nullable: true })
  userAgent: string | null;

  @ApiProperty({
    description:
      "SHA-256 (hex) over this event's canonical JSON and the previous event's hash.",
  })
  hash: string;
}

export class AuditEventPageDto {
  @ApiProperty({ type: [AuditEventDto] })
  data: AuditEventDto[];

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Pass it as `cursor` for the next (older) page; null on the last page.',
  })
  nextCursor: string | null;
}

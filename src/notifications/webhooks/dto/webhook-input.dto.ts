import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import {
  IsBoolean,
  IsDefined,
  IsOptional,
  IsString,
  MaxLength,
  ValidateIf,
} from 'class-validator';

/** The body of `POST /api/v1/forms/{id}/webhooks`. Checks run bottom-up. */
export class CreateWebhookDto {
  @ApiProperty({
    description:
      'Where each submission is POSTed: an absolute http or https URL without user name or password. ' +
      'Unless the server allows private targets (WEBHOOK_ALLOW_PRIVATE), every address its host resolves to must be public: ' +
      'loopback, private, link-local and similar addresses are refused.',
    example: 'https://hooks.example.com/formgate',
    maxLength: 2048,
  })
  @MaxLength(2048, {
    message: '$property must be at most 2048 characters long',
  })
  @IsString({ message: '$property must be a string' })
  @IsDefined({ message: '$property is required' })
  url: string;

  @ApiPropertyOptional({
    description: 'A note for yourself (what the endpoint is).',
    example: 'CRM import',
    maxLength: 500,
    nullable: true,
    type: String,
  })
  @IsOptional()
  @MaxLength(500, { message: '$property must be at most 500 characters long' })
  @IsString({ message: '$property must be a string' })
  description?: string | null;

  @ApiPropertyOptional({
    description:
      'Whether submissions are delivered; `true` when omitted on create. Turning a webhook on clears `disabledReason`.',
    example: true,
  })
  @IsOptional()
  @IsBoolean({ message: '$property must be true or false' })
  enabled?: boolean;
}

/** The body of `PATCH /api/v1/forms/{id}/webhooks/{webhookId}`: any of the same properties. */
export class PatchWebhookDto extends PartialType(CreateWebhookDto) {
  @ApiPropertyOptional({
    description:
      'Where each submission is POSTed (same rules as when creating).',
    maxLength: 2048,
  })
  @ValidateIf((_object, value) => value !== undefined)
  @MaxLength(2048, {
    message: '$property must be at most 2048 characters long',
  })
  @IsString({ message: '$property must be a string' })
  declare url?: string;
}

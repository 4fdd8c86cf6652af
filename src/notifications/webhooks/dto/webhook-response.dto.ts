import { ApiProperty } from '@nestjs/swagger';

export class WebhookResponseDto {
  @ApiProperty({ example: 'Zk3q9v0bq1W2Lrj4m5n6oA' })
  id: string;

  @ApiProperty({ example: 'https://hooks.example.com/formgate' })
  url: string;

  @ApiProperty({ type: String, nullable: true, example: 'CRM import' })
  description: string | null;

  @ApiProperty({ example: true })
  enabled: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Why the service turned the webhook off (the endpoint answered 410, or every delivery failed for 5 days); null otherwise.',
    example: null,
  })
  disabledReason: string | null;

  @ApiProperty({ example: '2026-01-05T10:00:00.000Z' })
  createdAt: string;

  @ApiProperty({ example: '2026-01-05T10:00:00.000Z' })
  updatedAt: string;
}

export class WebhookListResponseDto {
  @ApiProperty({ type: [WebhookResponseDto] })
  data: WebhookResponseDto[];
}

export class WebhookSecretDto {
  @ApiProperty({
    description:
      'The signing secret: `whsec_` + base64 of 32 random bytes. Shown only now: keep it with your receiver.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret: string;
}

export class CreatedWebhookResponseDto extends WebhookResponseDto {
  @ApiProperty({
    description:
      'The signing secret: `whsec_` + base64 of 32 random bytes. Shown only here and on rotation.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret: string;
}

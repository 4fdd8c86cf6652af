import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsDefined,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { CHAT_KINDS, type ChatKind } from '../../../config/reach-config.js';

const isTelegram = (body: { kind?: unknown }) => body.kind === 'telegram';

/** The body of `POST /api/v1/forms/{id}/chat-channels`. Checks run bottom-up. */
export class CreateChatChannelDto {
  @ApiProperty({ enum: CHAT_KINDS, example: 'slack' })
  @IsIn(CHAT_KINDS, {
    message: `$property must be one of ${CHAT_KINDS.join(', ')}`,
  })
  @IsDefined({ message: '$property is required' })
  kind: ChatKind;

  @ApiPropertyOptional({
    description:
      'A name for yourself (which channel it is); the kind when omitted.',
    example: '#sales',
    maxLength: 100,
  })
  @IsOptional()
  @MaxLength(100, { message: '$property must be at most 100 characters long' })
  @IsString({ message: '$property must be a string' })
  name?: string;

  @ApiPropertyOptional({
    description:
      'slack, discord, teams: the webhook URL, on the provider’s own hosts (hooks.slack.com; discord.com or discordapp.com under /api/webhooks/; *.logic.azure.com or *.api.powerplatform.com). Write-only: never shown again.',
    example:
      'https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX',
    maxLength: 2048,
  })
  @ValidateIf((body: { kind?: unknown }) => !isTelegram(body))
  @MaxLength(2048, {
    message: '$property must be at most 2048 characters long',
  })
  @IsString({ message: '$property must be a string' })
  @IsDefined({ message: '$property is required for this kind' })
  url?: string;

  @ApiPropertyOptional({
    description: 'telegram: the bot token from @BotFather. Write-only.',
    example: '123456789:AAF1bcDEfghIJKlmnOPQrstUVwxyz012345',
  })
  @ValidateIf(isTelegram)
  @Matches(/^\d{1,20}:[\w-]{20,100}$/, {
    message:
      '$property must be a bot token as @BotFather gives it (<digits>:<letters>)',
  })
  @IsString({ message: '$property must be a string' })
  @IsDefined({ message: '$property is required for telegram' })
  botToken?: string;

  @ApiPropertyOptional({
    description:
      'telegram: the chat id (a number, negative for groups) or @channelusername.',
    example: '-1001234567890',
  })
  @ValidateIf(isTelegram)
  @Matches(/^(-?\d{1,20}|@\w{4,64})$/, {
    message: '$property must be a chat id (a number) or @channelusername',
  })
  @IsString({ message: '$property must be a string' })
  @IsDefined({ message: '$property is required for telegram' })
  chatId?: string;
}

/** The body of `PATCH …/chat-channels/{channelId}`: any of these. */
export class PatchChatChannelDto {
  @ApiPropertyOptional({ example: '#sales', maxLength: 100 })
  @IsOptional()
  @MaxLength(100, { message: '$property must be at most 100 characters long' })
  @IsString({ message: '$property must be a string' })
  name?: string;

  @ApiPropertyOptional({
    description: 'Turning a channel on clears `disabledReason`.',
    example: true,
  })
  @IsOptional()
  @IsBoolean({ message: '$property must be true or false' })
  enabled?: boolean;

  @ApiPropertyOptional({
    description:
      'slack, discord, teams: a new webhook URL (same rules as on create).',
    maxLength: 2048,
  })
  @IsOptional()
  @MaxLength(2048, {
    message: '$property must be at most 2048 characters long',
  })
  @IsString({ message: '$property must be a string' })
  url?: string;

  @ApiPropertyOptional({ description: 'telegram: a new bot token.' })
  @IsOptional()
  @Matches(/^\d{1,20}:[\w-]{20,100}$/, {
    message:
      '$property must be a bot token as @BotFather gives it (<digits>:<letters>)',
  })
  @IsString({ message: '$property must be a string' })
  botToken?: string;

  @ApiPropertyOptional({ description: 'telegram: a new chat id.' })
  @IsOptional()
  @Matches(/^(-?\d{1,20}|@\w{4,64})$/, {
    message: '$property must be a chat id (a number) or @channelusername',
  })
  @IsString({ message: '$property must be a string' })
  chatId?: string;
}

export class ChatChannelResponseDto {
  @ApiProperty({ example: 'Zk3q9v0bq1W2Lrj4m5n6oA' })
  id: string;

  @ApiProperty({ enum: CHAT_KINDS, example: 'slack' })
  kind: string;

  @ApiProperty({ example: '#sales' })
  name: string;

  @ApiProperty({
    description:
      'The host and the last 4 characters of the secret part (never the whole URL or token).',
    example: 'hooks.slack.com …XXXX',
  })
  target: string;

  @ApiProperty({ example: true })
  enabled: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Why the provider refused the channel (gone, bot blocked); null otherwise.',
    example: null,
  })
  disabledReason: string | null;

  @ApiProperty({ example: '2026-12-01T10:00:00.000Z' })
  createdAt: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'When a message last reached the provider; null before the first.',
    example: null,
  })
  lastDeliveryAt: string | null;
}

export class ChatChannelListResponseDto {
  @ApiProperty({ type: [ChatChannelResponseDto] })
  data: ChatChannelResponseDto[];
}

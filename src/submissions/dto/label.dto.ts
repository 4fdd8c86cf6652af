import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsDefined,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';
import {
  LABEL_COLORS,
  LABEL_NAME_MAX,
  type LabelColor,
} from '../inbox/label.entity.js';

const COLOR_MESSAGE = `color must be one of ${LABEL_COLORS.join(', ')}`;

export class CreateLabelDto {
  @ApiProperty({
    maxLength: LABEL_NAME_MAX,
    description: 'Unique in the account (409 otherwise).',
    example: 'lead',
  })
  @IsDefined({ message: 'name is required' })
  @IsString({ message: 'name must be a string' })
  @MaxLength(LABEL_NAME_MAX, {
    message: `name must be at most ${LABEL_NAME_MAX} characters`,
  })
  name: string;

  @ApiPropertyOptional({ enum: LABEL_COLORS, default: 'gray' })
  @IsOptional()
  @IsIn(LABEL_COLORS, { message: COLOR_MESSAGE })
  color?: LabelColor;
}

export class UpdateLabelDto {
  @ApiPropertyOptional({ maxLength: LABEL_NAME_MAX, example: 'hot lead' })
  @IsOptional()
  @IsString({ message: 'name must be a string' })
  @MaxLength(LABEL_NAME_MAX, {
    message: `name must be at most ${LABEL_NAME_MAX} characters`,
  })
  name?: string;

  @ApiPropertyOptional({ enum: LABEL_COLORS })
  @IsOptional()
  @IsIn(LABEL_COLORS, { message: COLOR_MESSAGE })
  color?: LabelColor;
}

export class LabelDto {
  @ApiProperty({ example: '01JNMZ6Q0S8V7K2D3F4G5H6J7K' })
  id: string;

  @ApiProperty({ example: 'lead' })
  name: string;

  @ApiProperty({ enum: LABEL_COLORS, example: 'green' })
  color: LabelColor;

  @ApiProperty({ type: String, format: 'date-time' })
  createdAt: string;
}

export class LabelListDto {
  @ApiProperty({ type: [LabelDto], description: 'By name.' })
  data: LabelDto[];
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The body of every error response. */
export class ErrorDto {
  @ApiProperty({ example: 'Form not found' })
  error: string;
}

/** A validation failure: one message per problem, each naming the field. */
export class ValidationErrorDto extends ErrorDto {
  @ApiProperty({ example: 'Validation failed' })
  declare error: string;

  @ApiPropertyOptional({
    type: [String],
    example: ['email must be a valid email address'],
  })
  errors: string[];
}

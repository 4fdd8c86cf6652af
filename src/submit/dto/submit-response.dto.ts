import { ApiProperty } from '@nestjs/swagger';

/** The answer to an accepted submission (and, deliberately, to a caught bot). */
export class SubmitResponseDto {
  @ApiProperty({ example: true, enum: [true] })
  success: true;

  @ApiProperty({ example: 'Submission received' })
  message: string;

  static received(): SubmitResponseDto {
    return { success: true, message: 'Submission received' };
  }
}

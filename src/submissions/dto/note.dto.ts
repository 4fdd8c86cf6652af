import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, MaxLength } from 'class-validator';
import { NOTE_TEXT_MAX } from '../inbox/submission-note.entity.js';

/** The body of POST and PATCH …/notes. */
export class NoteBodyDto {
  @ApiProperty({
    maxLength: NOTE_TEXT_MAX,
    description: `The note (plain text, 1 to ${NOTE_TEXT_MAX} characters).`,
    example: 'Called back, sending a quote tomorrow.',
  })
  @IsDefined({ message: 'text is required' })
  @IsString({ message: 'text must be a string' })
  @MaxLength(NOTE_TEXT_MAX, {
    message: `text must be at most ${NOTE_TEXT_MAX} characters`,
  })
  text: string;
}

export class NoteAuthorDto {
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The member who wrote it; null when a key wrote it.',
  })
  userId: string | null;

  @ApiProperty({ type: String, nullable: true })
  email: string | null;
}

export class NoteDto {
  @ApiProperty({ example: '01JNMZ6Q0S8V7K2D3F4G5H6J7K' })
  id: string;

  @ApiProperty()
  text: string;

  @ApiProperty({ type: NoteAuthorDto })
  author: NoteAuthorDto;

  @ApiProperty({ type: String, format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time' })
  updatedAt: string;
}

export class NoteListDto {
  @ApiProperty({ type: [NoteDto], description: 'Oldest first.' })
  data: NoteDto[];
}

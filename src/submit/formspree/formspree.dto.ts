import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Success, as Formspree's client libraries read it. */
export class FormspreeSuccessDto {
  @ApiProperty({ example: true, enum: [true] })
  ok: true;

  @ApiProperty({
    description:
      "The form's `redirectUrl` when it has one, else this service's thank-you page for the form.",
    example: 'https://forms.example.com/f/a1b2c3/thanks',
  })
  next: string;
}

/** One problem: a field's (with `field`), or the whole submission's. */
export class FormspreeErrorEntryDto {
  @ApiPropertyOptional({
    description: 'The field the problem is about; absent for the whole form.',
    example: 'email',
  })
  field?: string;

  @ApiPropertyOptional({
    description:
      "Formspree's code: for a field REQUIRED_FIELD_MISSING, REQUIRED_FIELD_EMPTY, TYPE_EMAIL, TYPE_NUMERIC or TYPE_TEXT; for the form FORM_NOT_FOUND, BLOCKED, EMPTY or NO_FILE_UPLOADS. Absent when none applies.",
    enum: [
      'REQUIRED_FIELD_MISSING',
      'REQUIRED_FIELD_EMPTY',
      'TYPE_EMAIL',
      'TYPE_NUMERIC',
      'TYPE_TEXT',
      'FORM_NOT_FOUND',
      'BLOCKED',
      'EMPTY',
      'NO_FILE_UPLOADS',
    ],
    example: 'TYPE_EMAIL',
  })
  code?: string;

  @ApiProperty({ example: 'email must be a valid email address' })
  message: string;
}

/** Every error answer of the Formspree-compatible route. */
export class FormspreeErrorDto {
  @ApiProperty({ example: 'Validation failed' })
  error: string;

  @ApiProperty({ type: [FormspreeErrorEntryDto] })
  errors: FormspreeErrorEntryDto[];
}

import { PartialType } from '@nestjs/swagger';
import { UpdateFormDto } from './update-form.dto.js';

/**
 * The body of `PATCH /api/v1/forms/:id`: any subset of the properties. `null` is not
 * "absent": it is checked like any other value (and refused).
 */
export class PatchFormDto extends PartialType(UpdateFormDto, {
  skipNullProperties: false,
}) {}

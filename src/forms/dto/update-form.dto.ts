import { CreateFormDto } from './create-form.dto.js';

/**
 * The body of `PUT /api/v1/forms/:id`: a full replacement, so the same rules as creation;
 * `fields`, `domainVerification`, `redirectUrl`, `successMessage` and `retentionDays` fall
 * back to `[]`, `false`, `null`, `null` and `null` when omitted.
 */
export class UpdateFormDto extends CreateFormDto {}

import { CreateFormDto } from './create-form.dto.js';

/**
 * The body of `PUT /api/v1/forms/:id`: a full replacement, so the same rules as creation;
 * `fields` and `domainVerification` fall back to `[]` and `false` when omitted.
 */
export class UpdateFormDto extends CreateFormDto {}

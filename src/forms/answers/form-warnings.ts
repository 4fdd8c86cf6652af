// The warning a single-form answer carries when the form's configuration needs attention.
// Domain verification provides FORM_WARNINGS (verification on, no domain verified yet);
// forms depends on this interface only, so the dependency runs from domain verification
// to forms, never back.
import type { Form } from '../form.entity.js';

export interface FormWarnings {
  /** A sentence for the form's API answer and settings page, or null. */
  warningFor(form: Form): Promise<string | null>;
}

export const FORM_WARNINGS = Symbol('FORM_WARNINGS');

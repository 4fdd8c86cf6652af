// The delivery table as the outbox statements name it (delivery-sql.ts): its columns in the
// order rows are read and written, the statuses a worker claims, and the index a claim walks.

/** The index a claim walks: (status, accountId, target, nextAttemptAt). */
export const CLAIM_INDEX = 'IDX_delivery_claim';

/** The statuses a worker sends: never tried yet, or to be tried again. */
export const CLAIMABLE = ['pending', 'failed'] as const;

/** Every column of a delivery, in the order rows are read. */
export const DELIVERY_COLUMNS = [
  'id',
  'formId',
  'accountId',
  'submissionId',
  'channel',
  'target',
  'event',
  'payload',
  'status',
  'attempts',
  'scheduleStart',
  'nextAttemptAt',
  'leaseOwner',
  'leaseUntil',
  'lastStatusCode',
  'lastError',
  'lastDurationMs',
  'createdAt',
  'deliveredAt',
] as const;

/** The columns a new delivery is written with (the rest take their defaults). */
export const NEW_DELIVERY_COLUMNS = [
  'id',
  'formId',
  'accountId',
  'submissionId',
  'channel',
  'target',
  'event',
  'payload',
  'status',
  'attempts',
  'scheduleStart',
  'nextAttemptAt',
  'createdAt',
] as const;

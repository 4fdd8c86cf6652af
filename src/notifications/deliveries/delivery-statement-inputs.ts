// What the outbox statements of delivery-sql.ts are built from: attempts, their results, and
// the groups a claim takes from.
/** One attempt as the delivery log keeps it. */
export interface NewAttempt {
  id: string;
  deliveryId: string;
  at: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** A delivery's state after an attempt, written only while `owner` holds its lease. */
export interface AttemptResult {
  id: string;
  owner: string;
  status: string;
  nextAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  lastDurationMs: number;
  deliveredAt: Date | null;
}

/** Take up to `take` due deliveries of one account's target. */
export interface GroupTake {
  accountId: string;
  target: string;
  take: number;
}

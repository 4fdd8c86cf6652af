// The seam between the notification outbox and the ways an owner is notified. The outbox
// (delivery rows written with their submission, a worker that claims and retries them)
// knows nothing of HTTP or SMTP; each channel knows nothing of leases and retries.
// Channels: webhooks (signed POSTs) and email (SMTP, to confirmed recipients only).

export type ChannelName = 'webhook' | 'email' | 'chat' | 'autoresponse';

/** One delivery the worker hands to its channel for one attempt. */
export interface DeliveryToSend {
  /** The delivery id; a webhook sends it as `webhook-id`, the same on every retry. */
  id: string;
  formId: string;
  channel: ChannelName;
  /** The webhook id (webhook channel) or the email address (email channel). */
  target: string;
  /** `submission.created`, or `webhook.test` for a test delivery. */
  event: string;
  /** null for a test delivery. */
  submissionId: string | null;
  /** Attempts made before this one. */
  attempts: number;
  /** When the delivery was created (a test event's timestamp). */
  createdAt?: Date;
  /**
   * Control values the submission does not store, kept on the delivery for send time:
   * `_subject` / `_replyto` of an email delivery (absent keys when not sent). Empty for
   * other channels.
   */
  payload?: Readonly<Record<string, string>>;
}

/** A stored submission as a notification describes it. */
export interface SubmissionNotice {
  id: string;
  formId: string;
  formName: string;
  accountId: string;
  createdAt: Date;
  data: Record<string, unknown>;
  meta: { ip: string | null; userAgent: string | null; origin: string | null };
}

/** What one attempt did, as the delivery log keeps it. */
export interface AttemptOutcome {
  ok: boolean;
  /** The HTTP status (webhook) or the SMTP reply code (email), when one came back. */
  statusCode: number | null;
  /** A short, safe description of the failure for the log (never a secret). */
  error: string | null;
  durationMs: number;
  /** The target refuses for good (a webhook answered 410, an address is no longer confirmed): no retry. */
  final?: boolean;
  /** The target asked to wait this long (a provider's throttle answer): not due before. */
  retryAfterMs?: number;
}

export interface NotificationChannel {
  readonly name: ChannelName;
  /**
   * The targets a new submission of this form is delivered to (enabled webhooks' ids,
   * confirmed recipients' addresses). The submit path caches the answer with the form's
   * config and drops it when FormChangesService reports a change of the form, so a channel
   * reports every change of its targets there.
   */
  targetsFor(formId: string): Promise<string[]>;
  /**
   * Reads in one go what attempts at these deliveries need (their webhooks; their forms and
   * recipients) and returns one attempt per delivery, in the same order, for the worker to
   * run when a send slot is free. An attempt never throws for a failure of the target
   * (it returns it instead).
   */
  prepare(items: readonly ChannelItem[]): Promise<PreparedAttempt[]>;
  /** One attempt at one delivery: `prepare` for one, run at once. */
  send(
    delivery: DeliveryToSend,
    submission: SubmissionNotice | null,
    signal: AbortSignal,
  ): Promise<AttemptOutcome>;
}

/** A delivery with the submission it is about (null when deleted, or for a test event). */
export interface ChannelItem {
  delivery: DeliveryToSend;
  submission: SubmissionNotice | null;
}

/** One prepared attempt; the signal stops it when the worker shuts down. */
export type PreparedAttempt = (signal: AbortSignal) => Promise<AttemptOutcome>;

/** Injection token: the channels the worker and the submit path use (an array). */
export const NOTIFICATION_CHANNELS = Symbol('NOTIFICATION_CHANNELS');

/**
 * Something an owner must hear about. Only ids and times, never text an owner or a visitor
 * wrote (no form name, no URL): the message is the service's own words around them.
 */
export interface OwnerAlert {
  /** A webhook whose deliveries all failed for days was turned off. */
  type: 'webhook-failing';
  formId: string;
  webhookId: string;
  /** When its deliveries started failing. */
  since: Date;
}

/** Tells an owner about something that needs their attention (a webhook disabled, say). */
export interface OwnerAlerts {
  alert(accountId: string, alert: OwnerAlert): Promise<void>;
}

/** Injection token for OwnerAlerts (email when mail is configured, else a log line). */
export const OWNER_ALERTS = Symbol('OWNER_ALERTS');

import { AccountApiKey } from '../accounts/account-api-key.entity.js';
import { Account } from '../accounts/account.entity.js';
import { Membership } from '../accounts/membership.entity.js';
import { User } from '../accounts/user.entity.js';
import { Invitation } from '../accounts/invitation.entity.js';
import { DashboardSession } from '../dashboard/session/dashboard-session.entity.js';
import { IdempotencyRecord } from '../idempotency/idempotency-record.entity.js';
import { StorageReservation } from '../files/storage-reservation.entity.js';
import { StoredFile } from '../files/stored-file.entity.js';
import { FormDomain } from '../domain-verification/form-domain.entity.js';
import { Form } from '../forms/form.entity.js';
import { DeliveryAttempt } from '../notifications/deliveries/delivery-attempt.entity.js';
import { Delivery } from '../notifications/deliveries/delivery.entity.js';
import { OutboxEvent } from '../notifications/outbox/outbox-event.entity.js';
import { Webhook } from '../notifications/webhooks/webhook.entity.js';
import { EmailRecipient } from '../notifications/email/email-recipient.entity.js';
import { MailQuota } from '../notifications/email/mail-quota.entity.js';
import { FormSpamStat } from '../spam/form-spam-stat.entity.js';
import { UsedCaptchaToken } from '../spam/used-captcha-token.entity.js';
import { Submission } from '../submissions/submission.entity.js';

/** Every entity, listed once for the app and the migration CLI alike. */
export const ENTITIES = [
  Account,
  User,
  Membership,
  AccountApiKey,
  Form,
  Submission,
  FormDomain,
  DashboardSession,
  Webhook,
  Delivery,
  DeliveryAttempt,
  OutboxEvent,
  EmailRecipient,
  MailQuota,
  UsedCaptchaToken,
  FormSpamStat,
  IdempotencyRecord,
  StorageReservation,
  StoredFile,
  Invitation,
];

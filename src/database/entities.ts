import { AuditChain } from '../audit/audit-chain.entity.js';
import { AuditEvent } from '../audit/audit-event.entity.js';
import { AuditOpenEvent } from '../audit/audit-open-event.entity.js';
import { AccountApiKey } from '../accounts/account-api-key.entity.js';
import { Account } from '../accounts/account.entity.js';
import { Membership } from '../accounts/membership.entity.js';
import { User } from '../accounts/user.entity.js';
import { Invitation } from '../accounts/invitation.entity.js';
import { SsoAttempt } from '../sso/sso-attempt.entity.js';
import { SsoDomain } from '../sso/sso-domain.entity.js';
import { SsoSettings } from '../sso/sso-settings.entity.js';
import { DashboardSession } from '../dashboard/session/dashboard-session.entity.js';
import { IdempotencyRecord } from '../idempotency/idempotency-record.entity.js';
import { StorageReservation } from '../files/reservations/storage-reservation.entity.js';
import { StoredFile } from '../files/stored-file.entity.js';
import { FormDomain } from '../domain-verification/form-domain.entity.js';
import { Form } from '../forms/form.entity.js';
import { DeliveryAttempt } from '../notifications/deliveries/delivery-attempt.entity.js';
import { Delivery } from '../notifications/deliveries/delivery.entity.js';
import { OutboxEvent } from '../notifications/outbox/outbox-event.entity.js';
import { Webhook } from '../notifications/webhooks/webhook.entity.js';
import { ChatChannel } from '../notifications/chat/chat-channel.entity.js';
import { AutoresponseUnsubscribe } from '../notifications/autoresponder/autoresponse-unsubscribe.entity.js';
import { EmailRecipient } from '../notifications/email/email-recipient.entity.js';
import { MailQuota } from '../notifications/email/mail-quota.entity.js';
import { FormSpamStat } from '../spam/form-spam-stat.entity.js';
import { UsedCaptchaToken } from '../spam/used-captcha-token.entity.js';
import { Submission } from '../submissions/submission.entity.js';
import { FormCounter } from '../submissions/counters/form-counter.entity.js';
import { FormDailyCount } from '../submissions/counters/form-daily-count.entity.js';
import { Label } from '../submissions/inbox/label.entity.js';
import { SubmissionLabel } from '../submissions/inbox/submission-label.entity.js';
import { SubmissionNote } from '../submissions/inbox/submission-note.entity.js';
import { AccountSecurityPolicy } from '../second-factors/account-security-policy.entity.js';
import { Passkey } from '../second-factors/passkey.entity.js';
import { RecoveryCode } from '../second-factors/recovery-code.entity.js';
import { UserTotp } from '../second-factors/user-totp.entity.js';
import { WebauthnChallenge } from '../second-factors/webauthn-challenge.entity.js';

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
  ChatChannel,
  AutoresponseUnsubscribe,
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
  Label,
  SubmissionLabel,
  SubmissionNote,
  FormCounter,
  FormDailyCount,
  UserTotp,
  RecoveryCode,
  Passkey,
  WebauthnChallenge,
  AccountSecurityPolicy,
  SsoSettings,
  SsoDomain,
  SsoAttempt,
  AuditEvent,
  AuditChain,
  AuditOpenEvent,
];

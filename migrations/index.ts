// Every migration, in order. `npm run migration:generate` writes a new file here: add it below.
import { InitialSchema1763740000000 } from './1763740000000-InitialSchema.js';
import { FormHoneypotHits1763900000000 } from './1763900000000-FormHoneypotHits.js';
import { FormRedirect1764000000000 } from './1764000000000-FormRedirect.js';
import { Notifications1764100000000 } from './1764100000000-Notifications.js';
import { EmailRecipients1764200000000 } from './1764200000000-EmailRecipients.js';
import { SpamFolder1764300000000 } from './1764300000000-SpamFolder.js';
import { CaptchaTokens1764300000001 } from './1764300000001-CaptchaTokens.js';
import { OutboxEvents1764500000000 } from './1764500000000-OutboxEvents.js';
import { EmailRecipientSendError1764600000000 } from './1764600000000-EmailRecipientSendError.js';
import { KeyLifecycle1764700000000 } from './1764700000000-KeyLifecycle.js';
import { DeliverySubmissionIndex1764710000000 } from './1764710000000-DeliverySubmissionIndex.js';
import { MailQuotas1764800000000 } from './1764800000000-MailQuotas.js';
import { AccountEmailVerification1764810000000 } from './1764810000000-AccountEmailVerification.js';
import { IdempotencyRecords1764820000000 } from './1764820000000-IdempotencyRecords.js';
import { FormRetention1764840000000 } from './1764840000000-FormRetention.js';
import { StoredFiles1764850000000 } from './1764850000000-StoredFiles.js';
import { FormKeyExpiry1764900000000 } from './1764900000000-FormKeyExpiry.js';
import { StorageReservations1764900000001 } from './1764900000001-StorageReservations.js';
import { Teams1765000000000 } from './1765000000000-Teams.js';
import { Invitations1765010000000 } from './1765010000000-Invitations.js';
import { SessionSignInMethod1765100000000 } from './1765100000000-SessionSignInMethod.js';
import { SecondFactors1765100000001 } from './1765100000001-SecondFactors.js';
import { SingleSignOn1765200000000 } from './1765200000000-SingleSignOn.js';
import { AuditLog1765300000000 } from './1765300000000-AuditLog.js';
import { TeamInbox1765400000000 } from './1765400000000-TeamInbox.js';
import { ChatChannels1765500000000 } from './1765500000000-ChatChannels.js';
import { Autoresponse1765500000001 } from './1765500000001-Autoresponse.js';
import { AuditOpenEvents1765600000043 } from './1765600000043-AuditOpenEvents.js';

export const MIGRATIONS = [
  InitialSchema1763740000000,
  FormHoneypotHits1763900000000,
  FormRedirect1764000000000,
  Notifications1764100000000,
  EmailRecipients1764200000000,
  SpamFolder1764300000000,
  CaptchaTokens1764300000001,
  OutboxEvents1764500000000,
  EmailRecipientSendError1764600000000,
  KeyLifecycle1764700000000,
  DeliverySubmissionIndex1764710000000,
  MailQuotas1764800000000,
  AccountEmailVerification1764810000000,
  IdempotencyRecords1764820000000,
  FormRetention1764840000000,
  StoredFiles1764850000000,
  FormKeyExpiry1764900000000,
  StorageReservations1764900000001,
  Teams1765000000000,
  Invitations1765010000000,
  SessionSignInMethod1765100000000,
  SecondFactors1765100000001,
  SingleSignOn1765200000000,
  AuditLog1765300000000,
  TeamInbox1765400000000,
  ChatChannels1765500000000,
  Autoresponse1765500000001,
  AuditOpenEvents1765600000043,
];

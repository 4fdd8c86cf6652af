// The autoresponse channel of the outbox: one mail per submission, to the address the
// visitor gave in the form's chosen email field, with the owner's words only. The form
// lists a target (`form:<id>`) only while its autoresponse is on and it has a CAPTCHA, so
// the submit path writes the submission into its batch's outbox event as for any channel
// — and spam, the honeypot and a replayed Idempotency-Key never reach the outbox at all.
// At send time it is checked again, and the caps are reserved: 3 a day per address
// across accounts, AUTORESPONSE_DAILY_LIMIT a day per account (one conditional UPDATE
// each, MailQuotaLimiter). A submission released from the spam folder gets none: it never
// passed as a person's.
import { Injectable } from '@nestjs/common';
import { isEmailAddress } from '../../common/values/email-address.js';
import { AppConfig } from '../../config/app-config.js';
import { storedAutoresponse } from '../../forms/settings/autoresponse-settings.js';
import {
  FormRepository,
  type AutoresponseForm,
} from '../../forms/form.repository.js';
import { storedCaptcha } from '../../forms/settings/spam-settings.js';
import { Mailer } from '../email/mailer.js';
import { MailQuotaLimiter } from '../email/mail-quota-limiter.js';
import type { QuotaRule } from '../email/mail-quota-sql.js';
import type {
  AttemptOutcome,
  ChannelItem,
  DeliveryToSend,
  NotificationChannel,
  PreparedAttempt,
  SubmissionNotice,
} from '../notification-channel.js';
import { SUBMISSION_CREATED } from '../outbox/outbox-entry.js';
import { autoresponseMail } from './autoresponse-mail.js';
import {
  addressHash,
  AutoresponseUnsubscribeService,
} from './autoresponse-unsubscribe.service.js';

/** Autoresponses one address receives in a UTC day, whichever accounts send them. */
export const AUTORESPONSES_PER_ADDRESS = 3;
/** The payload key of a submission released from the spam folder. */
export const RELEASED_FROM_SPAM = '_released';

function refused(error: string): PreparedAttempt {
  const outcome: AttemptOutcome = {
    ok: false,
    statusCode: null,
    error,
    durationMs: 0,
    final: true,
  };
  return () => Promise.resolve(outcome);
}

type AutoForm = AutoresponseForm;

@Injectable()
export class AutoresponseChannel implements NotificationChannel {
  readonly name = 'autoresponse' as const;

  constructor(
    private readonly formRows: FormRepository,
    private readonly mailer: Mailer,
    private readonly quotas: MailQuotaLimiter,
    private readonly unsubscribes: AutoresponseUnsubscribeService,
    private readonly config: AppConfig,
  ) {}

  private forms(ids: readonly string[]): Promise<Map<string, AutoForm>> {
    return this.formRows.forAutoresponse(ids);
  }

  private static live(form: AutoForm | undefined) {
    const settings = storedAutoresponse(form?.autoresponse ?? null);
    return settings?.enabled && storedCaptcha(form?.captcha ?? null) !== null
      ? settings
      : null;
  }

  async targetsFor(formId: string): Promise<string[]> {
    if (!this.mailer.enabled) return [];
    const form = (await this.forms([formId])).get(formId);
    return AutoresponseChannel.live(form) ? [`form:${formId}`] : [];
  }

  async send(
    delivery: DeliveryToSend,
    submission: SubmissionNotice | null,
    signal: AbortSignal,
  ): Promise<AttemptOutcome> {
    const [attempt] = await this.prepare([{ delivery, submission }]);
    return attempt(signal);
  }

  async prepare(items: readonly ChannelItem[]): Promise<PreparedAttempt[]> {
    const forms = await this.forms(
      items.map(({ delivery }) => delivery.formId),
    );
    return Promise.all(
      items.map(async ({ delivery, submission }) => {
        if (delivery.event !== SUBMISSION_CREATED || submission === null) {
          return refused('The submission no longer exists');
        }
        if (delivery.payload?.[RELEASED_FROM_SPAM]) {
          return refused('No autoresponse for a submission taken out of spam');
        }
        const form = forms.get(delivery.formId);
        const settings = AutoresponseChannel.live(form);
        if (form === undefined || settings === null) {
          return refused('The form’s autoresponse is off');
        }
        const value = submission.data[settings.emailField];
        const address =
          typeof value === 'string' ? value.trim().toLowerCase() : '';
        if (!isEmailAddress(address)) {
          return refused('The submission has no valid address to answer');
        }
        const subject = {
          accountId: form.accountId,
          addressHash: addressHash(address),
        };
        if (await this.unsubscribes.isStopped(subject)) {
          return refused('The address asked for no more autoresponses');
        }
        return async (signal: AbortSignal) => {
          // Reserved once, at the first attempt: a retry of a mail that failed in transit
          // is the same mail.
          if (delivery.attempts === 0) {
            const reservation = await this.quotas.reserve(
              this.rules(form.accountId, subject.addressHash),
            );
            if (!reservation.ok) {
              return refused(
                reservation.refusedBy.subject.startsWith(
                  'autoresponse-address:',
                )
                  ? `The address has had ${AUTORESPONSES_PER_ADDRESS} autoresponses today`
                  : 'The account has sent its autoresponses for today (AUTORESPONSE_DAILY_LIMIT)',
              )(signal);
            }
          }
          const mail = autoresponseMail(
            address,
            settings,
            this.unsubscribes.link(form.accountId, address),
          );
          return this.mailer.send(mail, signal);
        };
      }),
    );
  }

  private rules(accountId: string, hash: string): QuotaRule[] {
    return [
      {
        subject: `autoresponse-address:${hash}`,
        perDay: AUTORESPONSES_PER_ADDRESS,
        maxUnanswered: Number.MAX_SAFE_INTEGER,
        quietMs: 0,
      },
      {
        subject: `autoresponse-account:${accountId}`,
        perDay: this.config.reach.autoresponseDailyLimit,
        maxUnanswered: Number.MAX_SAFE_INTEGER,
        quietMs: 0,
      },
    ];
  }
}

// Mails a member who was assigned submissions by someone else (DESIGN 20): to their verified
// address, unless they turned "Mail me when I am assigned" off; the form's name, who assigned
// them and a link to the dashboard — never what the visitor wrote. It spends the section-11
// budgets of confirmation mail (per account a day, per address), and sends after the change
// committed, in the background: a refusal or an SMTP failure is logged, the change stands.
import {
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
} from '@nestjs/common';
import { UserRepository } from '../../accounts/user.repository.js';
import { AppConfig } from '../../config/app-config.js';
import { FormRepository } from '../../forms/form.repository.js';
import type {
  Assignment,
  AssignmentMail,
} from '../../submissions/inbox/assignment-mail.js';
import { composeLinkMail } from './link-mail.js';
import { oneLine } from './mail-text.js';
import { Mailer } from './mailer.js';
import {
  accountRule,
  addressRule,
  MailQuotaLimiter,
} from './mail-quota-limiter.js';

export const ASSIGNMENT_SUBJECT =
  'A submission was assigned to you on Formgate';

@Injectable()
export class AssignmentMailer
  implements AssignmentMail, BeforeApplicationShutdown
{
  private readonly logger = new Logger('AssignmentMail');
  private readonly sending = new Set<Promise<void>>();

  constructor(
    private readonly users: UserRepository,
    private readonly forms: FormRepository,
    private readonly mailer: Mailer,
    private readonly quotas: MailQuotaLimiter,
    private readonly config: AppConfig,
  ) {}

  assigned(assignment: Assignment): Promise<void> {
    const work = this.send(assignment).catch((error: unknown) =>
      this.logger.error(`Assignment mail failed: ${(error as Error).message}`),
    );
    this.sending.add(work);
    void work.finally(() => this.sending.delete(work));
    return Promise.resolve();
  }

  /** Waits for the mails in flight (tests; shutdown). */
  async settled(): Promise<void> {
    await Promise.all(this.sending);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.settled();
  }

  private async send(assignment: Assignment): Promise<void> {
    if (!this.mailer.enabled) return;
    const person = await this.users.mailable(assignment.assigneeId);
    if (!person || !person.emailVerifiedAt || !person.mailOnAssign) return;
    const form = (await this.forms.summaries([assignment.formId])).get(
      assignment.formId,
    );
    let by = 'A key of the account';
    if (assignment.byUserId !== null) {
      const who = await this.users.mailable(assignment.byUserId);
      by = who?.email ?? 'A member';
    }
    const reserved = await this.quotas.reserve([
      accountRule(assignment.accountId),
      addressRule(person.email),
    ]);
    if (!reserved.ok) {
      this.logger.warn(
        `Assignment mail of account ${assignment.accountId} not sent: the daily mail budget is spent`,
      );
      return;
    }
    const result = await this.mailer.send({
      to: person.email,
      ...composeAssignmentMail({
        publicUrl: this.config.publicUrl,
        formId: assignment.formId,
        formName: form?.name ?? '',
        submissionIds: assignment.submissionIds,
        by,
      }),
    });
    if (!result.ok) {
      this.logger.warn(`Could not send an assignment mail: ${result.error}`);
    }
  }
}

export interface AssignmentMailInput {
  publicUrl: string;
  formId: string;
  formName: string;
  submissionIds: readonly string[];
  by: string;
}

/** The message: who, which form, how many, and the link; nothing a visitor or member typed. */
export function composeAssignmentMail(input: AssignmentMailInput) {
  const form = `${input.publicUrl}/dashboard/forms/${encodeURIComponent(input.formId)}`;
  const one = input.submissionIds.length === 1;
  const link = one
    ? `${form}/submissions/${encodeURIComponent(input.submissionIds[0])}`
    : `${form}?tab=mine`;
  const what = one
    ? 'a submission'
    : `${input.submissionIds.length} submissions`;
  return composeLinkMail({
    subject: ASSIGNMENT_SUBJECT,
    intro: `${oneLine(input.by)} assigned ${what} of the form "${oneLine(input.formName)}" to you.`,
    ask: one ? 'Open it in the dashboard:' : 'Open them in the dashboard:',
    link,
    otherwise:
      'You can turn these mails off on your profile page ("Mail me when I am assigned").',
  });
}

// The data of a form's Spam tab (form-spam.eta): how many submissions are in the spam
// folder, a page of them with their reasons, and what the honeypot and the CAPTCHA turned
// away in the last 30 days.
import { Injectable } from '@nestjs/common';
import { ownEntry } from '../../common/values/own-entry.js';
import { FormsService } from '../../forms/forms.service.js';
import { TurnedAwayCounter, utcDay } from '../../spam/turned-away.js';
import { SubmissionsService } from '../../submissions/submissions.service.js';
import type { FormResponseDto } from '../../forms/dto/form-response.dto.js';
import type { Form } from '../../forms/form.entity.js';
import { cell } from '../view-helpers.js';

export const SPAM_PAGE_SIZE = 25;
/** The days "turned away" counts cover, today included. */
export const TURNED_AWAY_DAYS = 30;

export const SPAM_NOTICES: Record<string, string> = {
  released:
    'Moved out of spam. Its notifications (webhooks, emails) are on their way.',
  'marked-spam': 'Moved to the spam folder. It sends no notification there.',
};

/** Why a submission is spam, in words. */
export const REASON_LABELS: Record<string, string> = {
  'captcha-unavailable': 'CAPTCHA provider did not answer',
  'captcha-missing': 'No CAPTCHA answer (kept during the grace period)',
  'too-many-links': 'Too many links',
  'blocked-word': 'Blocked word',
  duplicate: 'Duplicate',
  'marked-by-owner': 'Marked by you',
};

export interface TurnedAway {
  honeypot: number;
  captcha: number;
}

/** One submission of the spam folder, as its row shows it. */
export interface SpamRow {
  id: string;
  createdAt: string;
  reasons: string[];
  preview: string;
}

/** form-spam.eta. */
export interface SpamPageView {
  form: FormResponseDto;
  submissions: SpamRow[];
  nextCursor: string | null;
  cursor: string | undefined;
  total: number;
  turnedAway: TurnedAway;
  days: number;
  notice: string | undefined;
}

@Injectable()
export class SpamPageBuilder {
  constructor(
    private readonly forms: FormsService,
    private readonly submissions: SubmissionsService,
    private readonly turnedAway: TurnedAwayCounter,
  ) {}

  /** Posts turned away unstored over the last TURNED_AWAY_DAYS days. */
  turnedAwayOf(formId: string, now = Date.now()): Promise<TurnedAway> {
    const first = utcDay(now - (TURNED_AWAY_DAYS - 1) * 86_400_000);
    return this.turnedAway.since(formId, first);
  }

  async build(
    entity: Form,
    cursor: string | undefined,
    done: string,
  ): Promise<SpamPageView> {
    const form = this.forms.toResponse(entity);
    const [page, counts, turnedAway] = await Promise.all([
      this.submissions.list(entity, {
        spam: true,
        limit: SPAM_PAGE_SIZE,
        cursor,
      }),
      this.submissions.countSpam([form.id]),
      this.turnedAwayOf(form.id),
    ]);
    return {
      form,
      submissions: page.data.map((submission) => ({
        id: submission.id,
        createdAt: submission.createdAt,
        reasons: submission.spamReasons.map(
          (reason) => REASON_LABELS[reason] ?? reason,
        ),
        preview: Object.entries(submission.data)
          .map(([key, value]) => `${key}: ${cell(value)}`)
          .join(' · ')
          .slice(0, 300),
      })),
      nextCursor: page.nextCursor,
      cursor,
      total: counts.get(form.id) ?? 0,
      turnedAway,
      days: TURNED_AWAY_DAYS,
      notice: ownEntry(SPAM_NOTICES, done),
    };
  }
}

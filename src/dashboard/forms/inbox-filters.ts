// The inbox's own filters above a form's submissions, beside the search and dates of
// dashboard-filters.ts: the status tab (New · Open · Closed · All), "Assigned to me" and a
// label chip. Links keep every filter, so a tab keeps the search and a chip keeps the tab.
import {
  SUBMISSION_STATUSES,
  type SubmissionStatus,
} from '../../submissions/submission.entity.js';
import type { SubmissionFilterInput } from '../../submissions/queries/submission-filters.js';
import type { PageErrors } from '../page-errors.js';
import { queryText, type FilterValues } from './dashboard-filters.js';

export interface InboxValues extends FilterValues {
  /** '' is the All tab. */
  status: SubmissionStatus | '';
  /** "Assigned to me": '1' when on. */
  mine: '' | '1';
  /** A label's name, or '' for every label. */
  label: string;
}

export const STATUS_NAMES: Record<SubmissionStatus, string> = {
  new: 'New',
  open: 'Open',
  closed: 'Closed',
};

export function isStatus(value: string): value is SubmissionStatus {
  return (SUBMISSION_STATUSES as readonly string[]).includes(value);
}

/** The inbox part of the query; a bad status or label is said on the page (400). */
export function readInboxValues(
  query: Record<string, unknown>,
  filters: FilterValues,
  errors: PageErrors,
): InboxValues {
  const status = queryText(query.status).toLowerCase();
  const label = queryText(query.label);
  const values: InboxValues = {
    ...filters,
    status: '',
    // `tab=mine` is the assignment mail's link to a member's own submissions.
    mine:
      queryText(query.mine) === '1' || queryText(query.tab) === 'mine'
        ? '1'
        : '',
    label: label.length <= 40 ? label : '',
  };
  if (status && status !== 'all') {
    if (isStatus(status)) values.status = status;
    else errors.add('Choose the New, Open, Closed or All tab', 'status');
  }
  if (label.length > 40) errors.add('A label has at most 40 characters');
  return values;
}

/** The list's inbox filters, as the API's list takes them (DESIGN 20). */
export function inboxListFilter(
  values: InboxValues,
  userId: string,
): Pick<SubmissionFilterInput, 'status' | 'assignee' | 'label'> {
  const filter: Pick<SubmissionFilterInput, 'status' | 'assignee' | 'label'> =
    {};
  if (values.status) filter.status = values.status;
  if (values.mine) filter.assignee = userId;
  if (values.label) filter.label = values.label;
  return filter;
}

/** True when a filter beyond the tab is set (the page then says what it shows). */
export function inboxNarrowed(values: InboxValues): boolean {
  return Boolean(values.mine || values.label);
}

const ORDER = ['status', 'mine', 'label', 'q', 'from', 'to'] as const;

/** "?status=new&label=…" for links that keep the filters; `first` entries come first. */
export function inboxQuery(
  values: Partial<InboxValues>,
  first: Record<string, string | undefined> = {},
): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(first)) {
    if (value) params.set(name, value);
  }
  for (const name of ORDER) {
    const value = values[name];
    if (value && !params.has(name)) params.set(name, value);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The query string a work post returns to: only an inbox query, never another place. */
export function safeBack(value: unknown): string {
  const text = queryText(value);
  return /^\?[\w%=&.+~-]{0,1000}$/.test(text) ? text : '';
}

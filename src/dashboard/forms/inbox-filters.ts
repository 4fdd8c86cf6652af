// The inbox's own filters above a form's submissions, beside the search and dates of
// dashboard-filters.ts: the status tab (New · Open · Closed · All), "Assigned to me" and a
// label chip. The page opens on New; links name their tab (`status=all` for All) and keep
// every filter, so a tab keeps the search and a chip keeps the tab.
import {
  SUBMISSION_STATUSES,
  type SubmissionStatus,
} from '../../submissions/submission.entity.js';
import type { SubmissionFilterInput } from '../../submissions/queries/submission-filters.js';
import type { PageErrors } from '../page-errors.js';
import { queryText, type FilterValues } from './dashboard-filters.js';

/** A status tab, or every status. */
export type InboxTab = SubmissionStatus | 'all';

/** The tab the form's page opens on when the address names none. */
export const DEFAULT_TAB: InboxTab = 'new';

export interface InboxValues extends FilterValues {
  status: InboxTab;
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

/**
 * The inbox part of the query; a bad status or label is said on the page (400). Without a
 * `status` the page shows `fallback`: New for the form's page, All for an export.
 */
export function readInboxValues(
  query: Record<string, unknown>,
  filters: FilterValues,
  errors: PageErrors,
  fallback: InboxTab = DEFAULT_TAB,
): InboxValues {
  const status = queryText(query.status).toLowerCase();
  const label = queryText(query.label);
  // `tab=mine` is the assignment mail's link to every submission given to the member.
  const mailLink = queryText(query.tab) === 'mine';
  const values: InboxValues = {
    ...filters,
    status: mailLink ? 'all' : fallback,
    mine: queryText(query.mine) === '1' || mailLink ? '1' : '',
    label: label.length <= 40 ? label : '',
  };
  if (status === 'all' || isStatus(status)) {
    values.status = status;
  } else if (status) {
    errors.add('Choose the New, Open, Closed or All tab', 'status');
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
  if (values.status !== 'all') filter.status = values.status;
  if (values.mine) filter.assignee = userId;
  if (values.label) filter.label = values.label;
  return filter;
}

/** True when a filter beyond the tab is set (the page then says what it shows). */
export function inboxNarrowed(values: InboxValues): boolean {
  return Boolean(values.mine || values.label);
}

const ORDER = ['status', 'mine', 'label', 'q', 'from', 'to'] as const;

/**
 * "?status=new&label=…" for links that keep the filters (the tab always named, so All
 * stays All); `first` entries come first.
 */
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

/** The inbox query `back` with the notice after a post (`done`, and how many when counted). */
export function withDone(back: string, done: string, count?: number): string {
  const params = new URLSearchParams(back.slice(1));
  params.delete('done');
  params.delete('updated');
  params.delete('deleted');
  params.set('done', done);
  if (count !== undefined) {
    params.set(done === 'bulk-deleted' ? 'deleted' : 'updated', String(count));
  }
  return `?${params.toString()}`;
}

/** The `back` parameter of a link to a submission's page ('' when there is none). */
export function backParam(back: string): string {
  return back ? `?back=${encodeURIComponent(back)}` : '';
}

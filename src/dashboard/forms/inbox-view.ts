// What the inbox shows around a page of submissions (partials/inbox-bar.eta, bulk-bar.eta,
// work-controls.eta): the status tabs with their counts (read from the form's counters,
// never counted from its rows), "Assigned to me", the label chips, and whether the member
// may work or delete submissions (DESIGN 17: editors and above; viewers read).
import { roleHas, type Role } from '../../auth/permissions.js';
import {
  SUBMISSION_STATUSES,
  type SubmissionStatus,
} from '../../submissions/submission.entity.js';
import {
  backParam,
  inboxQuery,
  STATUS_NAMES,
  type InboxTab as TabKey,
  type InboxValues,
} from './inbox-filters.js';

export interface InboxTab {
  key: TabKey;
  label: string;
  /** From the form's counters. */
  count: number;
  href: string;
  current: boolean;
}

export interface InboxChip {
  name: string;
  color: string;
  href: string;
  on: boolean;
}

export interface InboxView {
  values: InboxValues;
  tabs: InboxTab[];
  mine: { href: string; on: boolean };
  chips: InboxChip[];
  canWork: boolean;
  canDelete: boolean;
  /** The account's members, the choices of an assignee. */
  members: Array<{ userId: string; email: string }>;
  /** The account's labels (bulk add/remove, the detail page's checkboxes). */
  labels: Array<{ name: string; color: string }>;
  colorOf: Record<string, string>;
  statuses: Array<{ key: SubmissionStatus; label: string }>;
  statusNames: Record<SubmissionStatus, string>;
  /** The query a work post returns to (this page's filters). */
  back: string;
  /** `?back=…` on the links to a submission's page, so its way back returns here. */
  openParam: string;
  /** The link that clears the search and dates, keeping the tab, "mine" and the label. */
  clearSearch: string;
  /** The same search on the All tab, when a status tab narrows it; else null. */
  searchAll: string | null;
  /** The All tab without any other filter. */
  showAll: string;
  /** Said when a tab or chip holds nothing. */
  emptyText: string;
}

export interface InboxCounts {
  total: number;
  new: number;
  open: number;
  closed: number;
}

export function buildInboxView(input: {
  values: InboxValues;
  counts: InboxCounts;
  role: Role;
  members: Array<{ userId: string; email: string }>;
  labels: Array<{ name: string; color: string }>;
  cursor: string | undefined;
}): InboxView {
  const { values, counts } = input;
  // A tab or a chip starts again at the newest: the cursor is not carried.
  const tab = (key: TabKey): InboxTab => ({
    key,
    label: key === 'all' ? 'All' : STATUS_NAMES[key],
    count: key === 'all' ? counts.total : counts[key],
    href: inboxQuery({ ...values, status: key }),
    current: values.status === key,
  });
  const colorOf: Record<string, string> = Object.create(null) as Record<
    string,
    string
  >;
  for (const label of input.labels) colorOf[label.name] = label.color;
  const back = inboxQuery(values, { cursor: input.cursor });
  const where =
    values.status === 'all' ? '' : STATUS_NAMES[values.status].toLowerCase();
  return {
    values,
    tabs: [tab('new'), tab('open'), tab('closed'), tab('all')],
    mine: {
      href: inboxQuery({ ...values, mine: values.mine ? '' : '1' }),
      on: values.mine === '1',
    },
    chips: input.labels.map((label) => ({
      name: label.name,
      color: label.color,
      href: inboxQuery({
        ...values,
        label: values.label === label.name ? '' : label.name,
      }),
      on: values.label === label.name,
    })),
    canWork: roleHas(input.role, 'submissions.work'),
    canDelete: roleHas(input.role, 'submissions.delete'),
    members: input.members,
    labels: input.labels,
    colorOf,
    statuses: SUBMISSION_STATUSES.map((key) => ({
      key,
      label: STATUS_NAMES[key],
    })),
    statusNames: STATUS_NAMES,
    back,
    openParam: backParam(back),
    clearSearch: inboxQuery({ ...values, q: '', from: '', to: '' }),
    searchAll:
      values.q && values.status !== 'all'
        ? inboxQuery({ ...values, status: 'all' })
        : null,
    showAll: inboxQuery({ status: 'all' }),
    emptyText: `No ${where ? where + ' ' : ''}submissions${values.mine ? ' assigned to you' : ''}${values.label ? ` labelled “${values.label}”` : ''}.`,
  };
}

// The search box and date range above a form's submissions. People pick whole days, both
// ends included ("from 1 May to 31 May"); the API's `to` is exclusive, so a plain date
// there becomes the start of the next day.
import {
  parseInstant,
  type SubmissionFilterInput,
} from '../../submissions/queries/submission-filters.js';
import { PageErrors } from '../page-errors.js';
import { calendarDay, dateTime } from '../view-helpers.js';

export interface FilterValues {
  q: string;
  from: string;
  to: string;
}

export interface DashboardFilters {
  /** What the owner typed, to show again in the inputs and carry in links. */
  values: FilterValues;
  /** The same as the submissions service's filters. */
  input: SubmissionFilterInput;
  errors: PageErrors;
  /** True when any filter is set. */
  active: boolean;
}

const PLAIN_DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;
export const MAX_SEARCH_LENGTH = 200;

/** A query value as text: a repeated parameter arrives as a list, and its first is used. */
export function queryText(value: unknown): string {
  const first = Array.isArray(value) ? (value as unknown[])[0] : value;
  return typeof first === 'string' ? first.trim() : '';
}

export function readFilters(query: Record<string, unknown>): DashboardFilters {
  const values: FilterValues = {
    q: queryText(query.q),
    from: queryText(query.from),
    to: queryText(query.to),
  };
  const errors = new PageErrors();
  const input: SubmissionFilterInput = {};
  if (values.q.length > MAX_SEARCH_LENGTH) {
    errors.add(`Search for at most ${MAX_SEARCH_LENGTH} characters`, 'q');
  } else if (values.q) {
    input.q = values.q;
  }
  const from = values.from ? parseInstant(values.from) : undefined;
  if (values.from && !from) {
    errors.add('From must be a date such as 2026-05-01', 'from');
  } else if (from) {
    input.from = from.toISOString();
  }
  const to = values.to ? parseInstant(values.to) : undefined;
  if (values.to && !to) {
    errors.add('To must be a date such as 2026-05-31', 'to');
  } else if (to) {
    const end = PLAIN_DATE.test(values.to)
      ? new Date(to.getTime() + DAY_MS)
      : to;
    input.to = end.toISOString();
  }
  if (from && to && input.from! >= input.to!) {
    errors.add('From must be on or before To', 'from');
  }
  const active = Boolean(values.q || values.from || values.to);
  return { values, input, errors, active };
}

/** "?q=…&from=…" for links that keep the filters; `first` entries come first. */
export function filterQuery(
  values: Partial<FilterValues>,
  first: Record<string, string | undefined> = {},
): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(first)) {
    if (value) params.set(name, value);
  }
  for (const name of ['q', 'from', 'to'] as const) {
    if (values[name]) params.set(name, values[name]);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** "from 1 May 2026 to 31 May 2026", "since 1 May 2026", "until 31 May 2026" or "". */
export function describeRange(
  values: Pick<FilterValues, 'from' | 'to'>,
): string {
  const day = (text: string) => {
    const date = parseInstant(text);
    if (!date) return text;
    return PLAIN_DATE.test(text) ? calendarDay(date) : dateTime(date);
  };
  if (values.from && values.to) {
    return `from ${day(values.from)} to ${day(values.to)}`;
  }
  if (values.from) return `since ${day(values.from)}`;
  if (values.to) return `until ${day(values.to)}`;
  return '';
}

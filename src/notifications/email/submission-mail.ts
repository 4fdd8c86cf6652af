// The message an owner receives for a submission: a subject, a Reply-To that reaches the
// person who submitted, and a text and an HTML part listing every field. Pure: the
// channel gives it the stored submission, the form and the control values sent with it.
import { isEmailAddress } from '../../common/values/email-address.js';
import { safeName } from '../../common/values/safe-name.js';
import type { FieldDefinition } from '../../forms/form.entity.js';
import {
  escapeHtml,
  headerText,
  oneLine,
  textLines,
  utcTime,
} from './mail-text.js';

export const MAX_SUBJECT_LENGTH = 200;

export interface SubmissionMailInput {
  formId: string;
  formName: string;
  /** The form's fields now: labels, order, and which values are email addresses. */
  fields: readonly FieldDefinition[];
  submissionId: string;
  createdAt: Date;
  data: Readonly<Record<string, unknown>>;
  /** PUBLIC_URL, without a trailing slash. */
  publicUrl: string;
  /** The `_subject` control value the submission carried, if any. */
  subject?: unknown;
  /** The `_replyto` control value the submission carried, if any. */
  replyTo?: unknown;
}

export interface ComposedMail {
  subject: string;
  /** A valid address, or absent. */
  replyTo?: string;
  text: string;
  html: string;
}

interface Line {
  label: string;
  value: string;
  /** Uploaded files with their download links (the HTML part links them). */
  files?: LinkedFile[];
}

interface LinkedFile {
  name: string;
  size: number;
  url: string;
}

/** A file value with its signed link, as notifications carry it (files/downloads/file-links.ts). */
function linkedFile(value: unknown): LinkedFile | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { name, size, url } = value as Record<string, unknown>;
  return typeof name === 'string' &&
    typeof size === 'number' &&
    typeof url === 'string' &&
    /^https?:\/\//.test(url)
    ? { name: safeName(name), size, url }
    : undefined;
}

function linkedFiles(value: unknown): LinkedFile[] | undefined {
  const values = Array.isArray(value) ? value : [value];
  const files = values.map(linkedFile);
  return values.length > 0 && files.every((file) => file !== undefined)
    ? (files as LinkedFile[])
    : undefined;
}

function fileText({ name, size, url }: LinkedFile): string {
  return `${name} (${size} bytes): ${url}`;
}

function line(label: string, value: unknown): Line {
  const files = linkedFiles(value);
  return files
    ? { label, value: files.map(fileText).join('\n'), files }
    : { label, value: valueText(value) };
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value) ?? '';
}

/** The form's fields in their order, then any other stored key (forms without fields). */
function linesOf(input: SubmissionMailInput): Line[] {
  const lines: Line[] = [];
  const listed = new Set<string>();
  for (const field of input.fields) {
    listed.add(field.id);
    if (!Object.hasOwn(input.data, field.id)) continue;
    lines.push(line(field.label?.trim() || field.id, input.data[field.id]));
  }
  for (const [key, value] of Object.entries(input.data)) {
    if (!listed.has(key)) lines.push(line(key, value));
  }
  return lines;
}

export function subjectOf(formName: string, subject: unknown): string {
  if (typeof subject === 'string') {
    const custom = headerText(subject, MAX_SUBJECT_LENGTH);
    if (custom) return custom;
  }
  return headerText(`New submission: ${formName}`, MAX_SUBJECT_LENGTH);
}

/** `_replyto` when it is a valid address, else the first valid value of an email field. */
export function replyToOf(
  fields: readonly FieldDefinition[],
  data: Readonly<Record<string, unknown>>,
  replyTo: unknown,
): string | undefined {
  if (typeof replyTo === 'string' && isEmailAddress(replyTo.trim())) {
    return replyTo.trim();
  }
  for (const field of fields) {
    const value = Object.hasOwn(data, field.id) ? data[field.id] : undefined;
    if (
      field.type === 'email' &&
      typeof value === 'string' &&
      isEmailAddress(value.trim())
    ) {
      return value.trim();
    }
  }
  return undefined;
}

export function submissionLink(input: {
  publicUrl: string;
  formId: string;
  submissionId: string;
}): string {
  return `${input.publicUrl}/dashboard/forms/${encodeURIComponent(input.formId)}/submissions/${encodeURIComponent(input.submissionId)}`;
}

function textPart(
  input: SubmissionMailInput,
  lines: Line[],
  link: string,
): string {
  // Each label stays on its line and a value's further lines are indented: nothing a
  // visitor sent can begin a line of its own.
  const body = lines.map(({ label, value }) => {
    const rows = textLines(value);
    return rows.length > 1
      ? `${oneLine(label)}:\n${rows.map((row) => `  ${row}`).join('\n')}`
      : `${oneLine(label)}: ${rows[0]}`;
  });
  return [
    `New submission to the form "${oneLine(input.formName)}"`,
    `Received ${utcTime(input.createdAt)}`,
    '',
    ...(body.length ? body : ['(no field was filled in)']),
    '',
    `View it in the dashboard: ${link}`,
    '',
  ].join('\n');
}

function htmlPart(
  input: SubmissionMailInput,
  lines: Line[],
  link: string,
): string {
  const cell = ({ value, files }: Line) =>
    files
      ? files
          .map(
            (file) =>
              `<a href="${escapeHtml(file.url)}">${escapeHtml(file.name)}</a> (${file.size} bytes)`,
          )
          .join('<br>')
      : escapeHtml(value);
  const rows = lines
    .map(
      (line) =>
        `<tr><th style="text-align:left;vertical-align:top;padding:4px 12px 4px 0">${escapeHtml(line.label)}</th><td style="white-space:pre-wrap;padding:4px 0">${cell(line)}</td></tr>`,
    )
    .join('\n');
  return [
    '<!doctype html>',
    '<html><body style="font-family:sans-serif">',
    `<p>New submission to the form <strong>${escapeHtml(input.formName)}</strong></p>`,
    `<p>Received <time datetime="${input.createdAt.toISOString()}">${utcTime(input.createdAt)}</time></p>`,
    rows
      ? `<table style="border-collapse:collapse">\n${rows}\n</table>`
      : '<p>(no field was filled in)</p>',
    `<p><a href="${escapeHtml(link)}">View it in the dashboard</a></p>`,
    '</body></html>',
    '',
  ].join('\n');
}

export function composeSubmissionMail(
  input: SubmissionMailInput,
): ComposedMail {
  const lines = linesOf(input);
  const link = submissionLink(input);
  const replyTo = replyToOf(input.fields, input.data, input.replyTo);
  return {
    subject: subjectOf(input.formName, input.subject),
    ...(replyTo ? { replyTo } : {}),
    text: textPart(input, lines, link),
    html: htmlPart(input, lines, link),
  };
}

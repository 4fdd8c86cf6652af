// What a chat channel posts for a submission, in each provider's format. Pure. The owner's
// words (the form's name, field labels) and the visitor's values alike are escaped for the
// target's markup, so a value can neither format nor ping: Slack's `&`, `<`, `>` (no
// `<!channel>`, no `<@U…>`) inside plain_text objects, Discord's markdown behind
// backslashes with `allowed_mentions: {parse: []}`, Teams' TextBlock markdown behind
// backslashes, Telegram's HTML entities. An `@` is followed by a word joiner where the
// provider would make a mention of it by itself (Discord, Telegram).
import type { FieldDefinition } from '../../forms/form.entity.js';
import type { ChatKind } from '../../config/reach-config.js';

export const MAX_FIELDS = 10;
export const MAX_VALUE_LENGTH = 300;
const TELEGRAM_MAX = 4096;
const WORD_JOINER = '\u2060';

export interface ChatMessageInput {
  formName: string;
  /** The form's fields now, for labels and order. */
  fields: readonly FieldDefinition[];
  data: Readonly<Record<string, unknown>>;
  /** The submission in the dashboard, or null for a test message. */
  link: string | null;
  /** A test message says so instead of listing fields. */
  test?: boolean;
}

export interface ChatSummary {
  title: string;
  lines: { label: string; value: string }[];
  files: string[];
  /** Fields left out beyond MAX_FIELDS. */
  more: number;
  link: string | null;
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function fileName(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return undefined;
  }
  const { name } = value as Record<string, unknown>;
  return typeof name === 'string' ? name : undefined;
}

function fileNames(value: unknown): string[] | undefined {
  const values = Array.isArray(value) ? value : [value];
  const names = values.map(fileName);
  return values.length > 0 && names.every((name) => name !== undefined)
    ? (names as string[])
    : undefined;
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(text).join(', ');
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : '';
}

/** The provider-neutral content: title, up to 10 fields (values cut), file names, link. */
export function summarize(input: ChatMessageInput): ChatSummary {
  const title = cut(
    input.test
      ? `Test message from Formgate: ${input.formName}`
      : `New submission: ${input.formName}`,
    200,
  );
  if (input.test) {
    return { title, lines: [], files: [], more: 0, link: input.link };
  }
  const labels = new Map(input.fields.map((f) => [f.id, f.label ?? f.id]));
  const order = [
    ...input.fields.map((f) => f.id),
    ...Object.keys(input.data).filter((key) => !labels.has(key)),
  ];
  const lines: ChatSummary['lines'] = [];
  const files: string[] = [];
  let more = 0;
  for (const key of order) {
    if (!Object.hasOwn(input.data, key)) continue;
    const value = input.data[key];
    const names = fileNames(value);
    if (names !== undefined) {
      files.push(...names.map((name) => cut(name, 200)));
      continue;
    }
    if (lines.length >= MAX_FIELDS) {
      more += 1;
      continue;
    }
    lines.push({
      label: cut(labels.get(key) ?? key, 100),
      value: cut(text(value), MAX_VALUE_LENGTH),
    });
  }
  return { title, lines, files, more, link: input.link };
}

/** Slack: `&`, `<` and `>` are its only control characters in text. */
export function escapeSlack(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

/** Discord markdown: every formatting character behind a backslash; no bare mention. */
export function escapeDiscord(value: string): string {
  return value
    .replace(/[\\*_~`|>#\-[\]()!<]/g, (char) => `\\${char}`)
    .replaceAll('@', `@${WORD_JOINER}`);
}

/** Adaptive Card TextBlock markdown: every formatting character behind a backslash. */
export function escapeTeams(value: string): string {
  return value.replace(/[\\*_~`|>#\-+[\]()!<&]/g, (char) => `\\${char}`);
}

/** Telegram's HTML parse mode: `&`, `<`, `>` as entities; no bare mention. */
export function escapeTelegram(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('@', `@${WORD_JOINER}`);
}

function plain(textValue: string) {
  return { type: 'plain_text', text: escapeSlack(textValue), emoji: false };
}

export function slackMessage(summary: ChatSummary): unknown {
  const blocks: unknown[] = [{ type: 'header', text: plain(summary.title) }];
  for (const { label, value } of summary.lines) {
    blocks.push({ type: 'section', text: plain(`${label}: ${value}`) });
  }
  if (summary.files.length > 0) {
    blocks.push({
      type: 'section',
      text: plain(`Files: ${summary.files.join(', ')}`),
    });
  }
  if (summary.more > 0) {
    blocks.push({
      type: 'context',
      elements: [plain(`${summary.more} more fields in the dashboard`)],
    });
  }
  if (summary.link !== null) {
    blocks.push({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `<${escapeSlack(summary.link)}|Open in the dashboard>`,
      },
    });
  }
  return { text: escapeSlack(summary.title), blocks };
}

export function discordMessage(summary: ChatSummary): unknown {
  const fields = summary.lines.map(({ label, value }) => ({
    name: escapeDiscord(label) || '\u200b',
    value: escapeDiscord(value) || '\u200b',
    inline: false,
  }));
  if (summary.files.length > 0) {
    fields.push({
      name: 'Files',
      value: escapeDiscord(summary.files.join(', ')),
      inline: false,
    });
  }
  return {
    content: escapeDiscord(summary.title),
    allowed_mentions: { parse: [] },
    embeds: [
      {
        title: escapeDiscord(summary.title),
        ...(summary.link === null ? {} : { url: summary.link }),
        fields,
        ...(summary.more > 0
          ? { footer: { text: `${summary.more} more fields in the dashboard` } }
          : {}),
      },
    ],
  };
}

export function teamsMessage(summary: ChatSummary): unknown {
  const body: unknown[] = [
    {
      type: 'TextBlock',
      text: escapeTeams(summary.title),
      weight: 'Bolder',
      size: 'Medium',
      wrap: true,
    },
  ];
  if (summary.lines.length > 0) {
    body.push({
      type: 'FactSet',
      facts: summary.lines.map(({ label, value }) => ({
        title: escapeTeams(label),
        value: escapeTeams(value),
      })),
    });
  }
  if (summary.files.length > 0) {
    body.push({
      type: 'TextBlock',
      text: escapeTeams(`Files: ${summary.files.join(', ')}`),
      wrap: true,
    });
  }
  if (summary.more > 0) {
    body.push({
      type: 'TextBlock',
      text: `${summary.more} more fields in the dashboard`,
      isSubtle: true,
      wrap: true,
    });
  }
  const card = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    body,
    ...(summary.link === null
      ? {}
      : {
          actions: [
            {
              type: 'Action.OpenUrl',
              title: 'Open in the dashboard',
              url: summary.link,
            },
          ],
        }),
  };
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: card,
      },
    ],
  };
}

export function telegramMessage(summary: ChatSummary, chatId: string): unknown {
  const parts = [`<b>${escapeTelegram(summary.title)}</b>`];
  for (const { label, value } of summary.lines) {
    parts.push(`<b>${escapeTelegram(label)}</b>: ${escapeTelegram(value)}`);
  }
  if (summary.files.length > 0) {
    parts.push(`<b>Files</b>: ${escapeTelegram(summary.files.join(', '))}`);
  }
  if (summary.more > 0) {
    parts.push(`${summary.more} more fields in the dashboard`);
  }
  let textValue = parts.join('\n');
  const link =
    summary.link === null
      ? ''
      : `\n<a href="${escapeTelegram(summary.link)}">Open in the dashboard</a>`;
  if (textValue.length + link.length > TELEGRAM_MAX) {
    // Cut between lines, so no entity or tag is split.
    while (textValue.length + link.length + 2 > TELEGRAM_MAX) {
      const end = textValue.lastIndexOf('\n');
      if (end <= 0) break;
      textValue = textValue.slice(0, end);
    }
    textValue += '\n…';
  }
  return {
    chat_id: chatId,
    text: textValue + link,
    parse_mode: 'HTML',
    disable_web_page_preview: true,
  };
}

export function chatMessage(
  kind: ChatKind,
  summary: ChatSummary,
  chatId = '',
): unknown {
  switch (kind) {
    case 'slack':
      return slackMessage(summary);
    case 'discord':
      return discordMessage(summary);
    case 'teams':
      return teamsMessage(summary);
    case 'telegram':
      return telegramMessage(summary, chatId);
  }
}

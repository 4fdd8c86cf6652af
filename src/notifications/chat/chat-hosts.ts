// Where a chat channel may post: only the provider's own hosts (DESIGN 21), or, for the
// kinds CHAT_ALLOWED_HOSTS names, the hosts it lists instead — the only way a chat channel
// reaches a private or loopback address. Also what the API shows of a channel's secret
// (`target`: the host and its last 4 characters) and what a provider's answer means.
import type { ChatKind, ReachConfig } from '../../config/reach-config.js';
import { checkUrlShape } from '../webhooks/address-guard.js';

/** The provider's own hosts: exact names, or `*.` for any subdomain. */
const PROVIDER_HOSTS: Record<Exclude<ChatKind, 'telegram'>, string[]> = {
  slack: ['hooks.slack.com'],
  discord: ['discord.com', 'discordapp.com'],
  teams: ['*.logic.azure.com', '*.api.powerplatform.com'],
};

const PROVIDER_LABELS: Record<ChatKind, string> = {
  slack: 'Slack',
  discord: 'Discord',
  teams: 'Microsoft Teams',
  telegram: 'Telegram',
};

export interface ChatRoute {
  /** Where the message is POSTed. */
  url: string;
  /** The kind is routed through CHAT_ALLOWED_HOSTS: private addresses are allowed. */
  allowPrivate: boolean;
}

export type UrlVerdict =
  { ok: true; url: URL } | { ok: false; problem: string };

function hostMatches(patterns: readonly string[], url: URL): boolean {
  const host = url.hostname.toLowerCase();
  const withPort = url.host.toLowerCase();
  return patterns.some((pattern) =>
    pattern.startsWith('*.')
      ? host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1
      : pattern === withPort || pattern === host,
  );
}

function allowedHosts(kind: ChatKind, reach: ReachConfig): string[] {
  const override = reach.chatAllowedHosts[kind];
  if (override !== undefined) return override;
  if (kind === 'telegram') return [new URL(reach.telegramApiUrl).host];
  return PROVIDER_HOSTS[kind];
}

export function overridden(kind: ChatKind, reach: ReachConfig): boolean {
  return reach.chatAllowedHosts[kind] !== undefined;
}

/** A webhook URL of a Slack, Discord or Teams channel, checked against the kind's hosts. */
export function checkChatUrl(
  kind: Exclude<ChatKind, 'telegram'>,
  raw: string,
  reach: ReachConfig,
): UrlVerdict {
  const shape = checkUrlShape(raw.trim());
  if (!shape.ok) return shape;
  const url = shape.url;
  const hosts = allowedHosts(kind, reach);
  if (!overridden(kind, reach) && url.protocol !== 'https:') {
    return { ok: false, problem: 'must use https' };
  }
  if (!hostMatches(hosts, url)) {
    return {
      ok: false,
      problem: `must be a ${PROVIDER_LABELS[kind]} webhook URL, on ${hosts.join(' or ')}`,
    };
  }
  if (kind === 'discord' && !url.pathname.startsWith('/api/webhooks/')) {
    return {
      ok: false,
      problem: 'must be a Discord webhook URL, under /api/webhooks/',
    };
  }
  if (url.pathname === '/' || url.pathname === '') {
    return { ok: false, problem: 'must be the whole webhook URL' };
  }
  return { ok: true, url };
}

/** The sendMessage URL of a Telegram bot (the token is the secret). */
export function telegramUrl(botToken: string, reach: ReachConfig): string {
  return `${reach.telegramApiUrl}/bot${botToken}/sendMessage`;
}

/** Telegram's API host is allowed (TELEGRAM_API_URL and CHAT_ALLOWED_HOSTS agree). */
export function telegramReachable(reach: ReachConfig): boolean {
  return hostMatches(
    allowedHosts('telegram', reach),
    new URL(reach.telegramApiUrl),
  );
}

function last4(secret: string): string {
  return secret.length <= 4 ? '…' : `…${secret.slice(-4)}`;
}

/** What the API shows of a channel: the host and the secret part's last 4 characters. */
export function targetHint(
  kind: ChatKind,
  secret: { url?: string; botToken?: string; chatId?: string },
  reach: ReachConfig,
): string {
  if (kind === 'telegram') {
    return `${new URL(reach.telegramApiUrl).host} bot${last4(secret.botToken ?? '')}`;
  }
  const url = new URL(secret.url ?? '');
  const sig = url.searchParams.get('sig');
  const tail = sig ?? url.pathname.split('/').filter(Boolean).pop() ?? '';
  return `${url.host} ${last4(tail)}`;
}

/** What a provider's answer means for the channel and the delivery. */
export interface ChatAnswer {
  ok: boolean;
  /** The provider asks to wait this long before the next attempt. */
  retryAfterMs?: number;
  /** The provider says the channel is gone: turned off with this reason. */
  gone?: string;
}

function seconds(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0
    ? Math.ceil(n * 1000)
    : undefined;
}

function json(body: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === 'object' && parsed !== null
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** At most a day: a throttle answer never parks a delivery for longer. */
const MAX_WAIT_MS = 24 * 3600 * 1000;

export function readAnswer(
  kind: ChatKind,
  status: number,
  body: string,
  retryAfterHeader: string | null,
): ChatAnswer {
  const parsed = json(body);
  if (status >= 200 && status < 300) {
    return { ok: kind !== 'telegram' || parsed.ok !== false };
  }
  if (status === 429) {
    const parameters = parsed.parameters as Record<string, unknown> | undefined;
    const wait =
      seconds(retryAfterHeader ?? undefined) ??
      seconds(parsed.retry_after) ??
      seconds(parameters?.retry_after);
    return {
      ok: false,
      ...(wait === undefined
        ? {}
        : { retryAfterMs: Math.min(wait, MAX_WAIT_MS) }),
    };
  }
  const label = PROVIDER_LABELS[kind];
  if (status === 404 || status === 410) {
    return {
      ok: false,
      gone: `${label} answered ${status}: the channel is gone, so it was turned off`,
    };
  }
  if (kind === 'telegram' && (status === 403 || status === 401)) {
    const description =
      typeof parsed.description === 'string'
        ? parsed.description.slice(0, 200)
        : 'Forbidden';
    return {
      ok: false,
      gone: `Telegram refused the bot (${status}: ${description}), so the channel was turned off`,
    };
  }
  return { ok: false };
}

// Reaching people beyond email and webhooks (docs/notifications.md): the hosts chat
// channels may post to, Telegram's bot API, and the autoresponder's daily cap per account.
import { withoutTrailingSlashes } from '../common/values/trailing-slashes.js';
import { ConfigError } from './config-error.js';
import { read, wholeNumber, type Env } from './env-values.js';

export const CHAT_KINDS = ['slack', 'discord', 'teams', 'telegram'] as const;
export type ChatKind = (typeof CHAT_KINDS)[number];

export interface ReachConfig {
  /**
   * CHAT_ALLOWED_HOSTS: for the kinds it names, the hosts (`host` or `host:port`, a leading
   * `*.` for any subdomain) that replace the provider's own; only these may be private or
   * loopback addresses.
   */
  chatAllowedHosts: Partial<Record<ChatKind, string[]>>;
  /** TELEGRAM_API_URL, without a trailing slash. */
  telegramApiUrl: string;
  /** AUTORESPONSE_DAILY_LIMIT: autoresponses one account sends in a UTC day. */
  autoresponseDailyLimit: number;
}

function parseAllowedHosts(
  raw: string | undefined,
): Partial<Record<ChatKind, string[]>> {
  const hosts: Partial<Record<ChatKind, string[]>> = {};
  if (raw === undefined) return hosts;
  for (const part of raw.split(',')) {
    const entry = part.trim();
    if (entry === '') continue;
    const [kind, host, ...rest] = entry.split('=');
    if (
      rest.length > 0 ||
      !(CHAT_KINDS as readonly string[]).includes(kind?.trim()) ||
      !/^(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/i.test(host?.trim() ?? '')
    ) {
      throw new ConfigError(
        'CHAT_ALLOWED_HOSTS',
        `must be a comma list of <kind>=<host[:port]> with kind one of ${CHAT_KINDS.join(', ')}, got "${entry}"`,
      );
    }
    const list = (hosts[kind.trim() as ChatKind] ??= []);
    list.push(host.trim().toLowerCase());
  }
  return hosts;
}

function parseTelegramUrl(raw: string | undefined): string {
  const value = raw ?? 'https://api.telegram.org';
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (
    !url ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.search !== '' ||
    url.username !== ''
  ) {
    throw new ConfigError(
      'TELEGRAM_API_URL',
      `must be an http:// or https:// base URL, got "${value}"`,
    );
  }
  return withoutTrailingSlashes(url.href);
}

export function parseReachConfig(env: Env): ReachConfig {
  return {
    chatAllowedHosts: parseAllowedHosts(read(env, 'CHAT_ALLOWED_HOSTS')),
    telegramApiUrl: parseTelegramUrl(read(env, 'TELEGRAM_API_URL')),
    autoresponseDailyLimit: wholeNumber(
      env,
      'AUTORESPONSE_DAILY_LIMIT',
      500,
      0,
      1_000_000,
    ),
  };
}

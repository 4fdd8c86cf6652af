// What never reaches a log line: API keys (wherever they appear, however they are
// spelled in a URL), link tokens (`/confirm-email/<token>`, `/verify-email/<token>`,
// `/invitations/<token>`, the signed download links `/files/<token>`), and the values of
// query parameters named like a secret. Fastify
// decodes the query before the API key guard reads it, so `?%61piKey=fgk%5F…` is a
// working key: matching is done on the decoded text, not on the bytes of the URL.

export const REDACTED = '[REDACTED]';

/**
 * Query parameter names whose values are secrets, compared without case, `-` or `_`.
 * `email` is personal data (the data-subject export takes one): never logged either.
 */
const SECRET_PARAMS = new Set([
  'email',
  'apikey',
  'xapikey',
  'key',
  'password',
  'token',
  'secret',
  'accesstoken',
  // An OpenID provider's answer to the SSO callback: the authorization code and the state.
  'code',
  'state',
]);

/** A Formgate key (`fgk_…` form key, `fga_…` account key), its `_` also percent-encoded. */
const KEY_SHAPE = /fg[ak](?:_|%5f)[\w-]{8,}/gi;

/**
 * Paths whose next segment is a secret token: whoever reads it can use the link
 * (`/confirm-email/<token>` confirms an address, `/dashboard/invitations/<token>` joins an
 * account). Listed without their slashes. The ids after `invitations` in the members API
 * and pages are redacted too: they are not secret, but one rule for the segment is safer
 * than telling the two apart.
 */
export const TOKEN_PATHS: readonly string[] = [
  'confirm-email',
  'verify-email',
  'invitations',
  'unsubscribe',
];

/**
 * `/<token path>/<token>` anywhere in a line, the slashes also percent-encoded: a literal
 * (so the ReDoS check reads it) that names every TOKEN_PATHS entry. The token ends before
 * a backslash, so an escaped quote of a JSON line stays whole.
 */
const TOKEN_IN_PATH =
  /((?:\/|%2f)(?:confirm-email|verify-email|invitations|unsubscribe)(?:\/|%2f))[^\s"'/?#&<>\\]+/gi;

/**
 * A signed download link's token after `/files/`: `<fileId>.<expires>.<signature>`, a
 * bearer link to a visitor's file for 7 days (docs/files.md). Told from the API's
 * `/files/<fileId>` (an id, no secret) by the dot after the id.
 */
const FILE_LINK_IN_PATH =
  /((?:\/|%2f)files(?:\/|%2f))[\w-]*(?:\.|%2e)[^\s"'/?#&<>\\]+/gi;

/**
 * The secret parts of chat channels' addresses (docs/notifications.md): a Telegram bot
 * token (`bot<digits>:<token>`), the path of a Slack incoming webhook after `/services/`,
 * a Discord webhook's token after `/api/webhooks/<id>/`, a Teams Workflows `sig`.
 */
const CHAT_SECRETS =
  /(bot\d{1,20}:|\/services\/|\/api\/webhooks\/\d{1,25}\/|[?&]sig=)[\w-]+(?:\/[\w-]+)*/gi;

/** Replaces everything shaped like a Formgate key, and every link token, in `text`. */
export function redactKeys(text: string): string {
  return text
    .replace(KEY_SHAPE, REDACTED)
    .replace(CHAT_SECRETS, `$1${REDACTED}`)
    .replace(TOKEN_IN_PATH, `$1${REDACTED}`)
    .replace(FILE_LINK_IN_PATH, `$1${REDACTED}`);
}

function hasKeyShape(text: string): boolean {
  KEY_SHAPE.lastIndex = 0;
  const found = KEY_SHAPE.test(text);
  KEY_SHAPE.lastIndex = 0;
  return found;
}

/**
 * The text a URL component stands for, decoded up to three times (so `%2561` is seen as
 * `a` too); `+` is a space as in form encoding. Malformed escapes stay as they are.
 */
function decoded(component: string): string {
  let text = component.replace(/\+/g, ' ');
  for (let i = 0; i < 3 && text.includes('%'); i++) {
    try {
      text = decodeURIComponent(text);
    } catch {
      break;
    }
  }
  return text;
}

function isTokenPath(segment: string): boolean {
  return TOKEN_PATHS.includes(decoded(segment).toLowerCase());
}

/** `segment`, found after `previous`, is a download link's token (FILE_LINK_IN_PATH). */
function isFileLinkToken(previous: string, segment: string): boolean {
  return (
    decoded(previous).toLowerCase() === 'files' &&
    decoded(segment).includes('.')
  );
}

function isSecretName(rawName: string): boolean {
  const name = decoded(rawName)
    .toLowerCase()
    .replace(/\[\]$/, '')
    .replace(/[-_\s]/g, '');
  return SECRET_PARAMS.has(name);
}

/** One `name=value` pair of a query string, with secrets and keys replaced. */
function redactParameter(pair: string): string {
  const equals = pair.indexOf('=');
  const name = equals === -1 ? pair : pair.slice(0, equals);
  if (hasKeyShape(decoded(name))) return REDACTED;
  if (equals === -1) return pair;
  const value = pair.slice(equals + 1);
  if (isSecretName(name) || hasKeyShape(decoded(value))) {
    return `${name}=${REDACTED}`;
  }
  return pair;
}

/**
 * A request URL fit for a log line: the value of every secret-named query parameter
 * (repeated ones included), every path segment or value that decodes to something shaped
 * like a key, the token after a TOKEN_PATHS segment and a download link's token after
 * `files` are replaced by [REDACTED].
 */
export function redactUrl(url: string): string {
  const hash = url.indexOf('#');
  const withoutFragment = hash === -1 ? url : url.slice(0, hash);
  const question = withoutFragment.indexOf('?');
  const path =
    question === -1 ? withoutFragment : withoutFragment.slice(0, question);
  const segments = path.split('/');
  const redactedPath = segments
    .map((segment, index) =>
      hasKeyShape(decoded(segment)) ||
      (index > 0 &&
        (isTokenPath(segments[index - 1]) ||
          isFileLinkToken(segments[index - 1], segment)))
        ? REDACTED
        : segment,
    )
    .join('/');
  if (question === -1) return redactedPath;
  const query = withoutFragment
    .slice(question + 1)
    .split('&')
    .map(redactParameter)
    .join('&');
  return `${redactedPath}?${query}`;
}

// DNS TXT proof of ownership: the names and value an owner publishes, and the lookup
// that checks them. The lookup never throws: every DNS failure becomes a human sentence.
import { Resolver } from 'node:dns/promises';

export const TXT_PREFIX = 'formgate-verification=';
export const TXT_SUBDOMAIN = '_formgate';

/**
 * c-ares waits `timeout` for the first try and doubles it for each retry, and Node checks
 * for expiry on a timer of min(timeout, 1 s): measured on a silent server, 750 ms × 2 tries
 * gives up after about 2.25 s (1000 ms × 2 took 3–4 s, 1500 ms × 2 took 5 s, which would
 * hit the 5 s request deadline).
 */
export const DNS_TIMEOUT_MS = 750;
export const DNS_TRIES = 2;
/**
 * Hard cap over both lookups, whatever the number of servers (c-ares tries each server
 * `tries` times): queries still open then are cancelled and reported as timed out.
 */
export const DNS_LOOKUP_DEADLINE_MS = 3000;

export function txtValue(token: string): string {
  return `${TXT_PREFIX}${token}`;
}

/** The names checked for `domain`, in order: the domain itself, then `_formgate.<domain>`. */
export function txtNames(domain: string): [string, string] {
  return [domain, `${TXT_SUBDOMAIN}.${domain}`];
}

export type LookupOutcome =
  | { name: string; kind: 'records'; records: string[] }
  | { name: string; kind: 'error'; code: string };

export type TxtCheck =
  { verified: true; name: string } | { verified: false; error: string };

/**
 * One TXT record as a single string: its character-strings joined (long values are split
 * into 255-byte chunks), trimmed, and without one pair of surrounding quotes that some DNS
 * panels store literally when the value was pasted quoted.
 */
export function joinTxtRecord(chunks: string[]): string {
  const value = chunks.join('').trim();
  return /^".*"$/.test(value) ? value.slice(1, -1).trim() : value;
}

/** Codes Node's resolver reports when the name or the TXT records simply are not there. */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA']);

function failureText(code: string): string {
  switch (code) {
    case 'ETIMEOUT':
    case 'ECANCELLED':
      return 'DNS lookup timed out';
    case 'ESERVFAIL':
      return 'The DNS server failed to answer (SERVFAIL)';
    case 'EREFUSED':
      return 'The DNS server refused the query (REFUSED)';
    case 'ECONNREFUSED':
      return 'The DNS server could not be reached (connection refused)';
    default:
      return `DNS lookup failed (${code})`;
  }
}

/** The verdict for `token` from the outcomes of both names (see txtNames). */
export function judge(outcomes: LookupOutcome[], token: string): TxtCheck {
  const expected = txtValue(token);
  for (const outcome of outcomes) {
    if (
      outcome.kind === 'records' &&
      outcome.records.some((record) => record === expected)
    ) {
      return { verified: true, name: outcome.name };
    }
  }
  const failed = outcomes.filter(
    (outcome): outcome is Extract<LookupOutcome, { kind: 'error' }> =>
      outcome.kind === 'error' && !ABSENT.has(outcome.code),
  );
  const names = outcomes.map((outcome) => outcome.name);
  if (failed.length > 0) {
    // Group by failure so two timeouts read as one sentence.
    const byText = new Map<string, string[]>();
    for (const { code, name } of failed) {
      const text = failureText(code);
      byText.set(text, [...(byText.get(text) ?? []), name]);
    }
    const sentences = [...byText].map(
      ([text, failedNames]) => `${text} for ${failedNames.join(' and ')}`,
    );
    return {
      verified: false,
      error: `${sentences.join('; ')}. Check that the record is published, then verify again in a few minutes.`,
    };
  }
  const domain = outcomes[0];
  const missingDomain =
    domain?.kind === 'error' && domain.code === 'ENOTFOUND'
      ? ` (${domain.name} does not exist in DNS)`
      : '';
  return {
    verified: false,
    error: `No TXT record ${expected} found on ${names.join(' or ')}${missingDomain}. DNS changes can take a while to appear: verify again later.`,
  };
}

/**
 * Looks up the TXT records of both names through `servers` (`host[:port]`; empty → the
 * system's resolvers) and judges them. A fresh Resolver per check: c-ares caches answers
 * per channel, and a record published a minute ago must be seen now.
 */
export async function checkTxt(
  domain: string,
  token: string,
  servers: string[],
): Promise<TxtCheck> {
  const resolver = new Resolver({ timeout: DNS_TIMEOUT_MS, tries: DNS_TRIES });
  if (servers.length > 0) resolver.setServers(servers);
  const deadline = setTimeout(() => resolver.cancel(), DNS_LOOKUP_DEADLINE_MS);
  try {
    const outcomes = await Promise.all(
      txtNames(domain).map(async (name): Promise<LookupOutcome> => {
        try {
          const records = await resolver.resolveTxt(name);
          return { name, kind: 'records', records: records.map(joinTxtRecord) };
        } catch (error) {
          const code = (error as { code?: unknown }).code;
          return {
            name,
            kind: 'error',
            code: typeof code === 'string' ? code : 'EUNKNOWN',
          };
        }
      }),
    );
    return judge(outcomes, token);
  } finally {
    clearTimeout(deadline);
  }
}

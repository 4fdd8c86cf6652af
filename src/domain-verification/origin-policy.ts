// Pure host logic of domain verification: which domains a form may register, which
// request host a submission comes from, and whether that host may submit. No I/O here,
// so every rule is unit-tested in origin-policy.spec.ts.
//
// Hosts are always compared in their ASCII form: the WHATWG URL parser (used for the
// Origin and Referer headers) and `domainToASCII` (used for registered domains) both
// apply IDNA, lower-case the name and canonicalise IP addresses.
import { BlockList, isIP } from 'node:net';
import { domainToASCII, domainToUnicode } from 'node:url';

/** Longest domain the API accepts: Fastify's route parameters stop at 200 characters. */
export const MAX_DOMAIN_LENGTH = 200;

export type NormalisedDomain =
  { ok: true; domain: string } | { ok: false; problem: string };

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
// Real top-level domains are letters only, or an IDNA A-label (xn--…).
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * An IDNA A-label (xn--…) must decode to a name with non-ASCII letters. Node 20 refuses
 * one that does not; Node 24 passes it through unchanged, so it is checked here.
 */
function isValidALabel(label: string): boolean {
  return /[\u0080-\uffff]/.test(domainToUnicode(label));
}

function strip(host: string): string {
  return host.endsWith('.') ? host.slice(0, -1) : host;
}

/**
 * Validates a domain an owner wants to verify and returns its canonical form: trimmed,
 * lower-case, IDNA ASCII (punycode), without a trailing dot. Refuses URLs, ports, paths,
 * user info, wildcards, IP addresses, development hosts and bare top-level domains.
 */
export function normaliseDomain(input: string): NormalisedDomain {
  const fail = (problem: string): NormalisedDomain => ({ ok: false, problem });
  const raw = input.trim();
  if (raw === '') return fail('domain must not be empty');
  // Refused before any pattern runs. A longer name has a longer ASCII form too, bar
  // characters IDNA deletes (soft hyphens), which nobody types on purpose.
  if (raw.length > MAX_DOMAIN_LENGTH + 1) {
    return fail(
      `domain must be at most ${MAX_DOMAIN_LENGTH} characters long in its ASCII form`,
    );
  }
  if (SCHEME.test(raw)) {
    return fail(
      'domain must be a bare host name such as example.com, without https:// or any other scheme',
    );
  }
  if (raw.includes('@')) return fail('domain must not contain user info (@)');
  if (/[/?#\\]/.test(raw)) {
    return fail(
      'domain must be a bare host name such as example.com, without a path, query or fragment',
    );
  }
  if (raw.includes('*')) {
    return fail(
      'domain must not contain wildcards: add the parent domain (example.com), its subdomains are accepted automatically',
    );
  }
  const unbracketed = raw.replace(/^\[(.*)\]$/, '$1');
  if (isIP(unbracketed) !== 0) {
    return fail(
      'domain must be a domain name: IP addresses cannot be verified by DNS',
    );
  }
  if (raw.includes(':')) {
    return fail('domain must not contain a port (:443)');
  }
  if (/\s/.test(raw)) return fail('domain must not contain spaces');

  const ascii = domainToASCII(raw.toLowerCase());
  if (ascii === '') return fail(`domain "${raw}" is not a valid host name`);
  // The WHATWG host parser reads names ending in a number (1.2.3, 0x7f.1) as IPv4.
  if (isIP(ascii) !== 0) {
    return fail(
      'domain must be a domain name: IP addresses cannot be verified by DNS',
    );
  }
  const domain = strip(ascii);
  if (domain.length > MAX_DOMAIN_LENGTH) {
    return fail(
      `domain must be at most ${MAX_DOMAIN_LENGTH} characters long in its ASCII form`,
    );
  }
  const labels = domain.split('.');
  if (labels.some((label) => label === '')) {
    return fail(`domain "${raw}" has an empty label (two dots in a row)`);
  }
  if (labels.some((l) => l.startsWith('xn--') && !isValidALabel(l))) {
    return fail(`domain "${raw}" is not a valid host name`);
  }
  if (domain === 'localhost' || domain.endsWith('.localhost')) {
    return fail(
      'domain must be a public domain: localhost names are development hosts, which may always submit',
    );
  }
  if (labels.length < 2) {
    return fail(
      `domain must have at least two labels, such as example.com ("${domain}" is a bare top-level domain)`,
    );
  }
  const bad = labels.find((label) => !LABEL.test(label));
  if (bad !== undefined) {
    return fail(
      `domain label "${bad}" is not valid: use letters, digits and inner hyphens, at most 63 characters`,
    );
  }
  if (!TLD.test(labels[labels.length - 1])) {
    return fail(`domain "${domain}" does not end in a valid top-level domain`);
  }
  return { ok: true, domain };
}

const DEVELOPMENT_ADDRESSES = new BlockList();
DEVELOPMENT_ADDRESSES.addSubnet('127.0.0.0', 8, 'ipv4');
DEVELOPMENT_ADDRESSES.addSubnet('192.168.0.0', 16, 'ipv4');
DEVELOPMENT_ADDRESSES.addAddress('::1', 'ipv6');

/**
 * A host from which submissions always pass, verification or not (development): `localhost`,
 * `*.localhost`, 127.0.0.0/8, `::1` and 192.168.0.0/16, IPv4-mapped IPv6 forms included.
 * `host` is a URL hostname (IPv6 in brackets allowed), compared as a parsed value.
 */
export function isDevelopmentHost(host: string): boolean {
  const name = strip(host.toLowerCase());
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  const address = name.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(address);
  if (family === 0) return false;
  // BlockList matches IPv4-mapped IPv6 (::ffff:127.0.0.1) against the IPv4 ranges.
  return DEVELOPMENT_ADDRESSES.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The verified domain `host` belongs to (itself or a parent on a label boundary), if any. */
export function matchVerifiedDomain(
  host: string,
  verifiedDomains: Iterable<string>,
): string | null {
  const name = strip(host.toLowerCase());
  for (const domain of verifiedDomains) {
    if (name === domain || name.endsWith(`.${domain}`)) return domain;
  }
  return null;
}

export type SiteHost =
  | { kind: 'host'; host: string; header: 'Origin' | 'Referer' }
  | { kind: 'missing' }
  | { kind: 'invalid'; header: 'Origin' | 'Referer' };

function hostOf(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return url.hostname === '' ? null : strip(url.hostname);
}

function present(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/**
 * The site a submission comes from: the host of `Origin`, else of `Referer`. A browser
 * sends `Origin: null` from opaque origins (file://, sandboxed frames): that counts as
 * no Origin. A header that is not an http(s) URL makes the request's site unknown.
 */
export function siteHost(headers: {
  origin?: unknown;
  referer?: unknown;
}): SiteHost {
  const { origin, referer } = headers;
  if (present(origin) && origin.trim() !== 'null') {
    const host = hostOf(origin.trim());
    return host === null
      ? { kind: 'invalid', header: 'Origin' }
      : { kind: 'host', host, header: 'Origin' };
  }
  if (present(referer)) {
    const host = hostOf(referer.trim());
    return host === null
      ? { kind: 'invalid', header: 'Referer' }
      : { kind: 'host', host, header: 'Referer' };
  }
  return { kind: 'missing' };
}

const REFUSAL =
  'Submissions to this form are only accepted from its verified domains';

function shown(host: string): string {
  return host.length > 100 ? `${host.slice(0, 100)}…` : host;
}

export type OriginDecision =
  | { allowed: true; host: string; via: 'development' | 'verified' }
  | { allowed: false; reason: string };

/**
 * The whole origin rule for a form with domain verification on: the request's site is the
 * host of Origin, else of Referer, and must be a verified domain of the form or a subdomain
 * of one, unless it is a development host (see isDevelopmentHost). Development
 * hosts are decided before the verified domains are needed (`verifiedDomains` is a thunk
 * so the hot path skips loading them for local development).
 */
export async function decideOrigin(
  headers: { origin?: unknown; referer?: unknown },
  verifiedDomains: () => Promise<ReadonlySet<string>> | ReadonlySet<string>,
): Promise<OriginDecision> {
  const site = siteHost(headers);
  if (site.kind === 'missing') {
    return {
      allowed: false,
      reason: `${REFUSAL}: the request has no Origin or Referer header`,
    };
  }
  if (site.kind === 'invalid') {
    return {
      allowed: false,
      reason: `${REFUSAL}: the ${site.header} header is not an http(s) URL`,
    };
  }
  if (isDevelopmentHost(site.host)) {
    return { allowed: true, host: site.host, via: 'development' };
  }
  if (matchVerifiedDomain(site.host, await verifiedDomains()) !== null) {
    return { allowed: true, host: site.host, via: 'verified' };
  }
  return {
    allowed: false,
    reason: `${REFUSAL}; ${shown(site.host)} is not one of them`,
  };
}

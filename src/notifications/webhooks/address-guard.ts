// The SSRF guard of webhook URLs: what a URL may look like, and which addresses it may
// reach. A URL is checked when it is saved, and every address is checked again at connect
// time (http-sender.ts hands Node a lookup that refuses non-public answers), so a name
// whose DNS answer changes after the save cannot reach the inside of the network.
import ipaddr from 'ipaddr.js';
import { lookup } from 'node:dns/promises';
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';

export const MAX_URL_LENGTH = 2048;
const DNS_TIMEOUT_MS = 1500;
const DNS_TRIES = 2;

/**
 * An IPv6 address with a dotted IPv4 tail in its canonical form (`::127.0.0.1` →
 * `::7f00:1`), as WHATWG URL and Node's resolver write it: ipaddr.js reads `::a.b.c.d`
 * as the IPv4-mapped `::ffff:a.b.c.d`, which it is not.
 */
function canonicalIpv6(address: string): string {
  if (!address.includes(':') || !address.includes('.')) return address;
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address;
  }
}

/**
 * true when `address` is public unicast. Everything else is refused: loopback, private,
 * link-local (169.254.0.0/16, the cloud metadata address), CGNAT, multicast, broadcast,
 * unspecified, reserved and documentation ranges, IPv6 unique-local and link-local, and
 * IPv6 forms that embed an IPv4 address (mapped, IPv4-compatible ::/96, NAT64, 6to4,
 * Teredo).
 */
export function isPublicAddress(address: string): boolean {
  // Brackets and an IPv6 zone (`fe80::1%eth0`) are cut by position, not by pattern.
  const unbracketed =
    address.startsWith('[') && address.endsWith(']')
      ? address.slice(1, -1)
      : address;
  const zone = unbracketed.indexOf('%');
  const bare = zone === -1 ? unbracketed : unbracketed.slice(0, zone);
  if (!ipaddr.isValid(bare)) return false;
  let parsed = ipaddr.parse(canonicalIpv6(bare));
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    // IPv4-compatible addresses (`::a.b.c.d`, ::/96, deprecated by RFC 4291): ipaddr.js
    // calls `::7f00:1` (what URL makes of `[::127.0.0.1]`) plain unicast. None is public.
    if (v6.parts.slice(0, 6).every((part) => part === 0)) return false;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
  }
  return parsed.range() === 'unicast';
}

/** `problem` is worded to follow the field's name: "must use http or https". */
export type UrlCheck = { ok: true; url: URL } | { ok: false; problem: string };

/** The URL's shape: absolute http(s), no credentials, not too long. */
export function checkUrlShape(raw: string): UrlCheck {
  if (raw.length > MAX_URL_LENGTH) {
    return {
      ok: false,
      problem: `must be at most ${MAX_URL_LENGTH} characters long`,
    };
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, problem: 'must be an absolute http or https URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, problem: 'must use http or https' };
  }
  if (url.username !== '' || url.password !== '') {
    return {
      ok: false,
      problem:
        'must not carry a user name or password: the signature authenticates each request',
    };
  }
  if (url.hostname === '') return { ok: false, problem: 'needs a host' };
  return { ok: true, url };
}

/** The host of a URL as a name or a bare IP (URL keeps IPv6 hosts in brackets). */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * The addresses of `host`: through `servers` when DNS_SERVERS is set (the resolver of the
 * TXT lookups), else through the system's resolver (which also reads /etc/hosts).
 */
export async function resolveHost(
  host: string,
  servers: string[],
): Promise<ResolvedAddress[]> {
  const family = isIP(host);
  if (family !== 0) return [{ address: host, family: family as 4 | 6 }];
  if (servers.length === 0) {
    const answers = await lookup(host, { all: true, verbatim: true });
    return answers.map((a) => ({
      address: a.address,
      family: a.family === 6 ? 6 : 4,
    }));
  }
  const resolver = new Resolver({ timeout: DNS_TIMEOUT_MS, tries: DNS_TRIES });
  resolver.setServers(servers);
  const [v4, v6] = await Promise.allSettled([
    resolver.resolve4(host),
    resolver.resolve6(host),
  ]);
  const addresses: ResolvedAddress[] = [
    ...(v4.status === 'fulfilled' ? v4.value : []).map((address) => ({
      address,
      family: 4 as const,
    })),
    ...(v6.status === 'fulfilled' ? v6.value : []).map((address) => ({
      address,
      family: 6 as const,
    })),
  ];
  if (addresses.length === 0) {
    const reason = v4.status === 'rejected' ? (v4.reason as unknown) : null;
    const raw = (reason as { code?: unknown } | null)?.code;
    const code = typeof raw === 'string' ? raw : 'ENODATA';
    throw Object.assign(new Error(`${host} has no address (${code})`), {
      code,
    });
  }
  return addresses;
}

/**
 * A host that is, or resolves to, an address that is not public. The message names the
 * host, never what a name resolved to: an owner must not learn the service's internal DNS
 * answers from it (the address stays on the error, for the service's own log).
 */
export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKED';
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(
      isIP(host) !== 0
        ? `${host} is not a public address (private, loopback and link-local targets are refused; set WEBHOOK_ALLOW_PRIVATE=true to allow them on a LAN installation)`
        : `the host ${host} is not public: it resolves to a private, loopback or link-local address, and such targets are refused (set WEBHOOK_ALLOW_PRIVATE=true to allow them on a LAN installation)`,
    );
  }
}

/** The addresses of `host`, all public; throws BlockedAddressError when one is not. */
export async function resolvePublic(
  host: string,
  servers: string[],
): Promise<ResolvedAddress[]> {
  const addresses = await resolveHost(host, servers);
  const blocked = addresses.find((a) => !isPublicAddress(a.address));
  if (blocked !== undefined) {
    throw new BlockedAddressError(host, blocked.address);
  }
  return addresses;
}

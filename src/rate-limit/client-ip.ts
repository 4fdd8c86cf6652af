// Who a submission comes from, as far as rate limiting and the stored metadata go.
// Fastify has already applied TRUST_PROXY to `request.ip`; this only normalises it.
import { isIP } from 'node:net';

/** Parses an IPv6 address (IPv4 tail allowed) into its eight 16-bit groups. */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase();
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    if (isIP(tail) !== 4) return null;
    const [a, b, c, d] = tail.split('.').map(Number);
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const rest = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array<string>(missing).fill('0'), ...rest].map(
    (group) => (/^[0-9a-f]{1,4}$/.test(group) ? parseInt(group, 16) : NaN),
  );
  return groups.some(Number.isNaN) ? null : groups;
}

function isV4Mapped(groups: number[]): boolean {
  return groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
}

function v4FromMapped(groups: number[]): string {
  return [
    groups[6] >> 8,
    groups[6] & 0xff,
    groups[7] >> 8,
    groups[7] & 0xff,
  ].join('.');
}

function withoutZone(ip: string): string {
  const zone = ip.indexOf('%');
  return zone === -1 ? ip : ip.slice(0, zone);
}

/** An address as given, normalised, and the rate-limit bucket it counts in. */
interface Client {
  address: string | null;
  bucket: string;
}

/**
 * The clients seen lately. Every submission asks for its client's bucket and address, and
 * working them out takes several regular-expression tests (net.isIP): a busy form's
 * clients are remembered instead, up to this many, then forgotten all at once.
 */
const recent = new Map<string, Client>();
const RECENT_MAX = 4096;

function clientOf(ip: string): Client {
  let client = recent.get(ip);
  if (client === undefined) {
    const address = normalize(ip);
    client = { address, bucket: bucketOf(address) };
    if (recent.size >= RECENT_MAX) recent.clear();
    recent.set(ip, client);
  }
  return client;
}

function normalize(ip: string): string | null {
  const bare = withoutZone(ip.trim());
  if (isIP(bare) === 6) {
    const groups = ipv6Groups(bare);
    if (groups && isV4Mapped(groups)) return v4FromMapped(groups);
  }
  return bare || null;
}

function bucketOf(address: string | null): string {
  if (address === null) return 'unknown';
  if (isIP(address) !== 6) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address;
  const prefix = groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':');
  return `${prefix}::/64`;
}

/**
 * The client address as stored with a submission: an IPv4-mapped IPv6 address
 * (`::ffff:203.0.113.7`) becomes plain IPv4, anything else is kept as given.
 */
export function normalizeClientIp(ip: string | undefined): string | null {
  return ip ? clientOf(ip).address : null;
}

/**
 * The rate-limit bucket of a client address. IPv4 (mapped or not) counts per address;
 * IPv6 per /64, the smallest block a single subscriber is normally given, so rotating
 * through one's own /64 does not multiply the budget.
 */
export function rateLimitBucket(ip: string | undefined): string {
  return ip ? clientOf(ip).bucket : 'unknown';
}

// The one generator of row ids (submissions, deliveries, accounts, recipients, …): ULIDs
// (26 characters of Crockford base32: 48 bits of milliseconds, then 80 random bits), so
// ids sort by time and cannot be guessed from one another. The randomness
// comes from a pooled buffer refilled from the CSPRNG a few hundred ids at a time, and the
// time part is encoded once per millisecond: the hot path pays for neither per request.
import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const RANDOM_BYTES = 10;
const POOL_IDS = 400;

const pool = Buffer.allocUnsafe(RANDOM_BYTES * POOL_IDS);
let offset = pool.length;
let lastMs = -1;
let lastTime = '';

/** Eight base32 characters of a 40-bit number. */
function encode40(value: number): string {
  let text = '';
  for (let i = 0; i < 8; i += 1) {
    text = ALPHABET[value % 32] + text;
    value = Math.floor(value / 32);
  }
  return text;
}

function encodeTime(ms: number): string {
  let text = '';
  for (let i = 0; i < 10; i += 1) {
    text = ALPHABET[ms % 32] + text;
    ms = Math.floor(ms / 32);
  }
  return text;
}

/** When a ULID was made (milliseconds since the epoch); NaN for a string that is not one. */
export function ulidTime(id: string): number {
  if (id.length !== 26) return NaN;
  let ms = 0;
  for (let i = 0; i < 10; i += 1) {
    const digit = ALPHABET.indexOf(id.charAt(i));
    if (digit < 0) return NaN;
    ms = ms * 32 + digit;
  }
  return ms;
}

/** A new ULID for the given time (milliseconds since the epoch). */
export function newUlid(now: number = Date.now()): string {
  if (now !== lastMs) {
    lastMs = now;
    lastTime = encodeTime(now);
  }
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const high = pool.readUIntBE(offset, 5);
  const low = pool.readUIntBE(offset + 5, 5);
  offset += RANDOM_BYTES;
  return lastTime + encode40(high) + encode40(low);
}

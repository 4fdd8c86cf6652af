// What a submission's `altcha` field must be before any cryptography runs: the widget's
// payload — base64 of `{challenge: {parameters, signature}, solution}` — small, well
// formed, of the one algorithm this service issues. Anything else is "malformed" at
// once, whatever its size or shape, so a hostile value costs no more than reading it.

/** The algorithm of every challenge this service issues. */
export const ALTCHA_ALGORITHM = 'PBKDF2/SHA-256';
/** Far above a real payload (about 700 characters). */
export const MAX_PAYLOAD_LENGTH = 4096;

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const HEX = /^[0-9a-f]+$/;

export interface AltchaChallenge {
  parameters: {
    algorithm: string;
    cost: number;
    expiresAt: number;
    keyLength: number;
    keyPrefix: string;
    keySignature: string;
    nonce: string;
    salt: string;
  };
  signature: string;
}

export interface AltchaPayload {
  challenge: AltchaChallenge;
  solution: { counter: number; derivedKey: string };
}

export type PayloadProblem = 'missing' | 'malformed';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hex(value: unknown, maxLength: number): value is string {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= maxLength &&
    HEX.test(value)
  );
}

function integer(value: unknown, max: number): value is number {
  return (
    Number.isSafeInteger(value) &&
    (value as number) >= 0 &&
    (value as number) <= max
  );
}

const PARAMETER_KEYS = [
  'algorithm',
  'cost',
  'expiresAt',
  'keyLength',
  'keyPrefix',
  'keySignature',
  'nonce',
  'salt',
];

function isChallenge(value: unknown): value is AltchaChallenge {
  if (!isObject(value) || !hex(value.signature, 128)) return false;
  const p = value.parameters;
  if (!isObject(p)) return false;
  const keys = Object.keys(p);
  return (
    keys.length === PARAMETER_KEYS.length &&
    PARAMETER_KEYS.every((key) => Object.hasOwn(p, key)) &&
    p.algorithm === ALTCHA_ALGORITHM &&
    integer(p.cost, 10_000_000) &&
    (p.cost as number) > 0 &&
    integer(p.expiresAt, 1e11) &&
    integer(p.keyLength, 64) &&
    (p.keyLength as number) > 0 &&
    hex(p.keyPrefix, 128) &&
    hex(p.keySignature, 128) &&
    hex(p.nonce, 128) &&
    hex(p.salt, 128)
  );
}

/** The payload, or why there is none to verify. */
export function parseAltchaPayload(
  raw: unknown,
): AltchaPayload | PayloadProblem {
  if (raw === undefined || raw === null || raw === '') return 'missing';
  // A repeated field, a number, an object: nothing the widget sends.
  if (typeof raw !== 'string' || raw.length > MAX_PAYLOAD_LENGTH) {
    return 'malformed';
  }
  if (raw.length % 4 !== 0 || !BASE64.test(raw)) return 'malformed';
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(raw, 'base64').toString('utf8'));
  } catch {
    return 'malformed';
  }
  if (!isObject(decoded) || !isChallenge(decoded.challenge)) return 'malformed';
  const solution = decoded.solution;
  if (
    !isObject(solution) ||
    !integer(solution.counter, 0xffffffff) ||
    !hex(solution.derivedKey, 128)
  ) {
    return 'malformed';
  }
  return {
    challenge: decoded.challenge,
    solution: { counter: solution.counter, derivedKey: solution.derivedKey },
  };
}

import { solveChallenge, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { AppConfig } from '../config/app-config.js';
import {
  AltchaService,
  altchaSecrets,
  verifyAltcha,
} from './altcha.service.js';
import { parseAltchaPayload, type AltchaPayload } from './altcha-payload.js';

const SECRET = 'unit-test-secret-unit-test-secret-0123';
const config = {
  appSecret: SECRET,
  spam: { altchaCost: 1, altchaMaxAgeSeconds: 600 },
} as AppConfig;

async function solved(formId: string, now?: number): Promise<AltchaPayload> {
  const challenge = await new AltchaService(config).challenge(formId, now);
  const solution = await solveChallenge({
    challenge: challenge as never,
    deriveKey,
  });
  const raw = Buffer.from(JSON.stringify({ challenge, solution })).toString(
    'base64',
  );
  const payload = parseAltchaPayload(raw);
  if (typeof payload === 'string') throw new Error(payload);
  return payload;
}

/** altcha-lib's own verdict on the same payload. */
async function libraryVerdict(payload: AltchaPayload, formId: string) {
  const secrets = altchaSecrets(SECRET, formId);
  const result = await verifySolution({
    challenge: payload.challenge,
    solution: payload.solution,
    deriveKey,
    hmacSignatureSecret: secrets.signature,
    hmacKeySignatureSecret: secrets.key,
  });
  return result.expired ? 'expired' : result.verified ? 'ok' : 'wrong';
}

function ourVerdict(payload: AltchaPayload, formId: string) {
  const result = verifyAltcha(
    payload,
    altchaSecrets(SECRET, formId),
    Date.now(),
  );
  return result.ok ? 'ok' : result.problem;
}

describe('ALTCHA verification', () => {
  it('gives the verdicts altcha-lib gives, on good and on tampered solutions', async () => {
    const good = await solved('form-a');
    const variants: Array<[string, AltchaPayload, string]> = [
      ['good', good, 'ok'],
      ['another form', good, 'wrong'],
      [
        'other key',
        {
          ...good,
          solution: { ...good.solution, derivedKey: 'ab'.repeat(32) },
        },
        'wrong',
      ],
      [
        'stretched expiry',
        {
          ...good,
          challenge: {
            ...good.challenge,
            parameters: {
              ...good.challenge.parameters,
              expiresAt: good.challenge.parameters.expiresAt + 60,
            },
          },
        },
        'wrong',
      ],
      [
        'forged signature',
        {
          ...good,
          challenge: { ...good.challenge, signature: '0'.repeat(64) },
        },
        'wrong',
      ],
      ['expired', await solved('form-a', Date.now() - 700_000), 'expired'],
    ];
    for (const [name, payload, expected] of variants) {
      const formId = name === 'another form' ? 'form-b' : 'form-a';
      expect(ourVerdict(payload, formId), name).toBe(expected);
      expect(await libraryVerdict(payload, formId), name).toBe(expected);
    }
  });

  it('names the used answer by its challenge, the same for every check of it', async () => {
    const payload = await solved('form-a');
    const first = verifyAltcha(payload, altchaSecrets(SECRET, 'form-a'), 0);
    const again = verifyAltcha(payload, altchaSecrets(SECRET, 'form-a'), 0);
    expect(first.ok && again.ok && first.id === again.id).toBe(true);
  });

  it('refuses malformed values before any cryptography', () => {
    for (const raw of [undefined, '', ['a'], 7, '!!!!', 'e30=']) {
      expect(parseAltchaPayload(raw)).toBe(raw ? 'malformed' : 'missing');
    }
  });
});

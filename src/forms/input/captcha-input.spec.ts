import type { AppConfig } from '../../config/app-config.js';
import { SecretBoxService } from '../../auth/secret-box.service.js';
import { captchaColumns, captchaResponse } from './captcha-input.js';

const box = new SecretBoxService({
  appSecret: 'captcha-input-spec-secret-captcha-input-spec-01',
} as AppConfig);
const NOW = new Date('2026-12-01T10:00:00.000Z');
const WEEK_LATER = '2026-12-08T10:00:00.000Z';

describe('captchaColumns: the grace of a CAPTCHA switched on', () => {
  it('starts 7 days for an existing form that had none, and none for a new form', () => {
    expect(
      captchaColumns({ provider: 'altcha' }, null, box, NOW).captcha,
    ).toEqual({
      provider: 'altcha',
      siteKey: null,
      minScore: null,
      graceUntil: WEEK_LATER,
    });
    expect(
      captchaColumns({ provider: 'altcha' }, undefined, box, NOW).captcha
        ?.graceUntil,
    ).toBeNull();
  });

  it('starts none when switched on with graceUntil: null, and ends a running one so', () => {
    expect(
      captchaColumns({ provider: 'altcha', graceUntil: null }, null, box, NOW)
        .captcha?.graceUntil,
    ).toBeNull();
    const running = { provider: 'altcha', graceUntil: WEEK_LATER };
    expect(
      captchaColumns(
        { provider: 'altcha', graceUntil: null },
        running,
        box,
        NOW,
      ).captcha?.graceUntil,
    ).toBeNull();
  });

  it('keeps a running grace through a change, and never brings back one that ran out', () => {
    const running = { provider: 'altcha', graceUntil: WEEK_LATER };
    expect(
      captchaColumns(
        { provider: 'turnstile', secret: 's' },
        running,
        box,
        new Date('2026-12-05T00:00:00.000Z'),
      ).captcha?.graceUntil,
    ).toBe(WEEK_LATER);
    expect(
      captchaColumns(
        { provider: 'altcha' },
        running,
        box,
        new Date('2026-12-09T00:00:00.000Z'),
      ).captcha?.graceUntil,
    ).toBeNull();
  });
});

describe('captchaResponse', () => {
  it('shows a running grace, and null once it has run out', () => {
    const stored = { provider: 'altcha', graceUntil: WEEK_LATER };
    expect(captchaResponse(stored, NOW.getTime())?.graceUntil).toBe(WEEK_LATER);
    expect(
      captchaResponse(stored, Date.parse(WEEK_LATER))?.graceUntil,
    ).toBeNull();
  });
});

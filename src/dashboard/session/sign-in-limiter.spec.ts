import { MemoryRateLimitStorage } from '../../rate-limit/rate-limit.storage.js';
import {
  CLIENT_FAILURES,
  CLIENT_SIGN_UPS,
  emailDelayMs,
  FREE_FAILURES_PER_EMAIL,
  SIGN_IN_WINDOW_MS,
  SignInLimiter,
  waitMessage,
} from './sign-in-limiter.js';

describe('SignInLimiter', () => {
  let now: number;
  let storage: MemoryRateLimitStorage;
  let limits: SignInLimiter;

  beforeEach(() => {
    now = 1_000_000;
    storage = new MemoryRateLimitStorage(() => now);
    limits = new SignInLimiter(storage);
  });
  afterEach(() => storage.onApplicationShutdown());

  it('lets a client fail ten times, then refuses it until the window passes', async () => {
    for (let i = 0; i < CLIENT_FAILURES; i++) {
      expect(await limits.loginWait('198.51.100.7', `x${i}@example.com`)).toBe(
        0,
      );
      await limits.loginFailed('198.51.100.7', `x${i}@example.com`);
      now += 1000;
    }
    const wait = await limits.loginWait('198.51.100.7', 'new@example.com');
    expect(wait).toBe((SIGN_IN_WINDOW_MS - 10_000) / 1000);
    expect(await limits.loginWait('198.51.100.8', 'new@example.com')).toBe(0);
    now += wait * 1000;
    expect(await limits.loginWait('198.51.100.7', 'new@example.com')).toBe(0);
  });

  it('counts an IPv6 /64 and an IPv4-mapped address as one client each', async () => {
    for (let i = 0; i < CLIENT_FAILURES; i++) {
      await limits.loginFailed(`2001:db8:1:2::${i + 1}`, `x${i}@example.com`);
    }
    expect(
      await limits.loginWait('2001:db8:1:2:ffff::9', 'y@example.com'),
    ).toBeGreaterThan(0);
    expect(await limits.loginWait('2001:db8:1:3::1', 'y@example.com')).toBe(0);

    for (let i = 0; i < CLIENT_SIGN_UPS; i++) {
      await limits.signUpAttempted('::ffff:203.0.113.5');
    }
    expect(await limits.signUpWait('203.0.113.5')).toBeGreaterThan(0);
  });

  it('makes one client wait longer and longer for one email, and nobody else', async () => {
    const ip = '203.0.113.20';
    const email = 'owner@example.com';
    for (let i = 0; i < FREE_FAILURES_PER_EMAIL; i++) {
      await limits.loginFailed(ip, email);
      expect(await limits.loginWait(ip, email)).toBe(0);
    }
    await limits.loginFailed(ip, email);
    expect(await limits.loginWait(ip, email)).toBe(4);
    // Another client, and the same client for another email, go ahead.
    expect(await limits.loginWait('203.0.113.21', email)).toBe(0);
    expect(await limits.loginWait(ip, 'other@example.com')).toBe(0);
    // The case of the email does not matter.
    expect(await limits.loginWait(ip, ' Owner@Example.com')).toBe(4);

    now += 4000;
    expect(await limits.loginWait(ip, email)).toBe(0);
    await limits.loginFailed(ip, email);
    expect(await limits.loginWait(ip, email)).toBe(8);
    now += 8000;
    await limits.loginFailed(ip, email);
    expect(await limits.loginWait(ip, email)).toBe(16);
  });

  it('forgets a client’s failures for an email once it logs in', async () => {
    const ip = '203.0.113.30';
    for (let i = 0; i <= FREE_FAILURES_PER_EMAIL; i++) {
      await limits.loginFailed(ip, 'me@example.com');
    }
    expect(await limits.loginWait(ip, 'me@example.com')).toBeGreaterThan(0);
    await limits.loginSucceeded(ip, 'me@example.com');
    expect(await limits.loginWait(ip, 'me@example.com')).toBe(0);
    await limits.loginFailed(ip, 'me@example.com');
    expect(await limits.loginWait(ip, 'me@example.com')).toBe(0);
  });

  it('limits sign-up attempts per client', async () => {
    for (let i = 0; i < CLIENT_SIGN_UPS; i++) {
      expect(await limits.signUpWait('198.51.100.50')).toBe(0);
      await limits.signUpAttempted('198.51.100.50');
    }
    expect(await limits.signUpWait('198.51.100.50')).toBe(
      SIGN_IN_WINDOW_MS / 1000,
    );
    expect(await limits.signUpWait('198.51.100.51')).toBe(0);
  });

  it('limits current-password checks per account', async () => {
    for (let i = 0; i < CLIENT_FAILURES; i++) {
      expect(await limits.passwordCheckWait('acc-1')).toBe(0);
      await limits.passwordCheckFailed('acc-1');
    }
    expect(await limits.passwordCheckWait('acc-1')).toBeGreaterThan(0);
    expect(await limits.passwordCheckWait('acc-2')).toBe(0);
  });
});

describe('emailDelayMs', () => {
  it('is free for the first failures, then doubles from 4 s up to 15 minutes', () => {
    const delays = Array.from({ length: 16 }, (_, i) => emailDelayMs(i + 1));
    expect(delays.slice(0, FREE_FAILURES_PER_EMAIL)).toEqual([0, 0, 0]);
    expect(delays.slice(3, 8)).toEqual([4000, 8000, 16_000, 32_000, 64_000]);
    expect(Math.max(...delays)).toBe(SIGN_IN_WINDOW_MS);
    expect(emailDelayMs(1000)).toBe(SIGN_IN_WINDOW_MS);
  });
});

describe('waitMessage', () => {
  it('speaks in seconds under a minute, in minutes above', () => {
    expect(waitMessage(1)).toBe(
      'Too many attempts. Please wait 1 second and try again.',
    );
    expect(waitMessage(8)).toBe(
      'Too many attempts. Please wait 8 seconds and try again.',
    );
    expect(waitMessage(900)).toBe(
      'Too many attempts. Please wait 15 minutes and try again.',
    );
  });
});

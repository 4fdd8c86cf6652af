import {
  SIGN_IN_MAX_FAILURES,
  SIGN_IN_WINDOW_MS,
  SignInThrottle,
} from './sign-in-throttle.js';

describe('SignInThrottle', () => {
  let now: number;
  let throttle: SignInThrottle;

  beforeEach(() => {
    now = 1_000_000;
    throttle = new SignInThrottle();
    throttle.now = () => now;
  });

  it('lets ten failures through and refuses the eleventh attempt until the window passes', () => {
    for (let i = 0; i < SIGN_IN_MAX_FAILURES; i++) {
      expect(throttle.retryAfterSeconds(['ip:a'])).toBe(0);
      throttle.recordFailure(['ip:a']);
      now += 1000;
    }
    const wait = throttle.retryAfterSeconds(['ip:a']);
    expect(wait).toBe((SIGN_IN_WINDOW_MS - 10_000) / 1000);
    now += wait * 1000;
    expect(throttle.retryAfterSeconds(['ip:a'])).toBe(0);
  });

  it('blocks when any of the keys is over the limit', () => {
    for (let i = 0; i < SIGN_IN_MAX_FAILURES; i++) {
      throttle.recordFailure([`ip:${i}`, 'email:x']);
    }
    expect(throttle.retryAfterSeconds(['ip:new', 'email:x'])).toBeGreaterThan(
      0,
    );
    expect(throttle.retryAfterSeconds(['ip:new', 'email:y'])).toBe(0);
  });

  it('forgets a key on reset', () => {
    for (let i = 0; i < SIGN_IN_MAX_FAILURES; i++)
      throttle.recordFailure(['email:x']);
    throttle.reset('email:x');
    expect(throttle.retryAfterSeconds(['email:x'])).toBe(0);
  });
});

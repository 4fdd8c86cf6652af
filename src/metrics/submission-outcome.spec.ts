import { submissionOutcome } from './submission-outcome.js';

describe('submissionOutcome', () => {
  it.each([
    [200, null, 'accepted'],
    [303, null, 'accepted'],
    [200, 'spam', 'spam'],
    [303, 'honeypot', 'honeypot'],
    [400, null, 'invalid'],
    [413, null, 'invalid'],
    [415, null, 'invalid'],
    [409, null, 'invalid'],
    [403, null, 'forbidden'],
    [404, null, 'not_found'],
    [429, null, 'rate_limited'],
    [503, null, 'unavailable'],
    [500, null, 'unavailable'],
  ] as const)('reads %i (%s) as %s', (status, verdict, outcome) => {
    expect(submissionOutcome(status, verdict)).toBe(outcome);
  });

  it('never lets a marked verdict hide a refusal', () => {
    expect(submissionOutcome(400, 'spam')).toBe('invalid');
  });
});

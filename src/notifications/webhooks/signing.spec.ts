import { Webhook as StandardWebhook } from 'standardwebhooks';
import { newWebhookSecret, signature, signedHeaders } from './signing.js';

describe('webhook signing', () => {
  it('makes secrets of 32 random bytes behind whsec_', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it('matches the signature of the specification (HMAC-SHA256 of id.timestamp.body)', () => {
    // The example of the Standard Webhooks specification.
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"test": 2432232314}';
    expect(
      signature(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('is verified by the standardwebhooks package, with either of two secrets', () => {
    const older = newWebhookSecret();
    const newer = newWebhookSecret();
    const body = JSON.stringify({ type: 'webhook.test' });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = signedHeaders(
      [newer, older],
      'delivery-1',
      timestamp,
      body,
    );
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(headers['content-type']).toBe('application/json');
    for (const secret of [older, newer]) {
      expect(new StandardWebhook(secret).verify(body, headers)).toEqual({
        type: 'webhook.test',
      });
    }
    expect(() =>
      new StandardWebhook(newWebhookSecret()).verify(body, headers),
    ).toThrow();
  });
});

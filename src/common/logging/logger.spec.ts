import { Writable } from 'node:stream';
import { createLogger, redactUrl } from './logger.js';

describe('redactUrl', () => {
  it('removes the apiKey query value and anything shaped like a key', () => {
    expect(redactUrl('/api/v1/forms?apiKey=fgk_abcdefghijkl&x=1')).toBe(
      '/api/v1/forms?apiKey=[REDACTED]&x=1',
    );
    expect(redactUrl('/api/v1/forms?x=1&apikey=secret')).toBe(
      '/api/v1/forms?x=1&apikey=[REDACTED]',
    );
    expect(redactUrl('/path/fga_abcdefghijklmnop')).toBe('/path/[REDACTED]');
  });
});

describe('createLogger', () => {
  it('redacts key headers, cookies and passwords from log lines', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger('info', sink);
    logger.info(
      {
        req: {
          headers: { 'x-api-key': 'fgk_secret', cookie: 'fg_session=abc' },
        },
        password: 'hunter2hunter2',
      },
      'hello',
    );
    const line = lines.join('');
    expect(line).toContain('hello');
    expect(line).not.toContain('fgk_secret');
    expect(line).not.toContain('fg_session=abc');
    expect(line).not.toContain('hunter2hunter2');
  });

  it('redacts a key anywhere in a line: messages, errors, unknown fields', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger('info', sink);
    const key = 'fga_abcdefghijklmnopqrstuvwxyz012345';
    logger.info({ note: `sent ${key}` }, `client used ${key}`);
    logger.error({ err: new Error(`bad key ${key}`) }, 'failed');
    logger.info(
      { req: { method: 'GET', url: `/api/v1/forms?%61piKey=${key}` } },
      'request',
    );
    const text = lines.join('');
    expect(lines).toHaveLength(3);
    expect(text).not.toContain('abcdefghijklmnopqrstuvwxyz012345');
    expect(text).toContain('[REDACTED]');
  });

  it('redacts confirmation tokens from request URLs, messages and errors, keeping lines JSON', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger('info', sink);
    const token = 'Zm9vYmFyYmF6cXV4LXRva2VuLXNlY3JldC12YWx1ZQ';
    logger.info(
      { req: { method: 'POST', url: `/confirm-email/${token}?x=1` } },
      'request completed',
    );
    logger.warn(`link "https://forms.example/confirm-email/${token}" failed`);
    logger.error(
      { err: new Error(`Cannot GET /Confirm-Email%2F${token}`) },
      'failed',
    );
    expect(lines).toHaveLength(3);
    expect(lines.join('')).not.toContain(token);
    for (const line of lines) {
      expect(() => JSON.parse(line) as unknown).not.toThrow();
    }
    expect(JSON.parse(lines[0]).req.url).toBe('/confirm-email/[REDACTED]?x=1');
    expect(JSON.parse(lines[1]).msg).toBe(
      'link "https://forms.example/confirm-email/[REDACTED]" failed',
    );
  });
});

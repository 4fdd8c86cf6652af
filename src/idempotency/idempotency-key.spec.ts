import { BadRequestException } from '@nestjs/common';
import {
  idempotencyKeyOf,
  idempotencyRecordId,
  requestFingerprint,
} from './idempotency-key.js';

describe('idempotencyKeyOf', () => {
  it('answers the key, or undefined without the header', () => {
    expect(idempotencyKeyOf({})).toBeUndefined();
    expect(idempotencyKeyOf({ 'idempotency-key': 'a b~!' })).toBe('a b~!');
    expect(idempotencyKeyOf({ 'idempotency-key': 'k'.repeat(255) })).toBe(
      'k'.repeat(255),
    );
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['not ASCII', 'clé'],
    ['a control character', 'a\tb'],
    ['repeated', ['a', 'b']],
  ])('refuses a key that is %s (400)', (_what, value) => {
    expect(() => idempotencyKeyOf({ 'idempotency-key': value })).toThrow(
      BadRequestException,
    );
  });
});

describe('idempotencyRecordId and requestFingerprint', () => {
  it('separates scopes and keys', () => {
    const id = idempotencyRecordId('submit:f1', 'k');
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect(idempotencyRecordId('submit:f2', 'k')).not.toBe(id);
    expect(idempotencyRecordId('submit:f1', 'k2')).not.toBe(id);
    expect(idempotencyRecordId('submit:f', '1\0k')).not.toBe(
      idempotencyRecordId('submit:f1', 'k'),
    );
  });

  it('ignores the query and tells bodies, paths and methods apart', () => {
    const base = requestFingerprint('POST', '/api/v1/forms', { a: 1 });
    expect(requestFingerprint('post', '/api/v1/forms?apiKey=x', { a: 1 })).toBe(
      base,
    );
    expect(requestFingerprint('POST', '/api/v1/forms', { a: 2 })).not.toBe(
      base,
    );
    expect(requestFingerprint('POST', '/api/v1/other', { a: 1 })).not.toBe(
      base,
    );
    expect(requestFingerprint('PUT', '/api/v1/forms', { a: 1 })).not.toBe(base);
  });
});

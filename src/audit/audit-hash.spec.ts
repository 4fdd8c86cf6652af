import { canonicalJson, eventHash, GENESIS_HASH } from './audit-hash.js';

const event = {
  id: '01JAAAAAAAAAAAAAAAAAAAAAAA',
  accountId: 'acc',
  seq: 1,
  at: new Date('2026-12-01T10:00:00.000Z'),
  actor: { type: 'member' as const, id: 'u1', label: 'a@example.com' },
  action: 'form.updated',
  target: { type: 'form', id: 'f1' },
  details: { name: { before: 'A', after: 'B' } },
  ip: '127.0.0.1',
  userAgent: null,
};

describe('canonicalJson', () => {
  it('sorts keys at every level and drops undefined properties', () => {
    expect(
      canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: undefined } }),
    ).toBe('{"a":{"d":[2,{"y":2,"z":1}]},"b":1}');
  });

  it('writes dates as ISO strings', () => {
    expect(canonicalJson({ at: new Date(0) })).toBe(
      '{"at":"1970-01-01T00:00:00.000Z"}',
    );
  });
});

describe('eventHash', () => {
  it('is the same whatever order the properties were given in', () => {
    const reordered = {
      ...event,
      details: { name: { after: 'B', before: 'A' } },
    };
    expect(eventHash(GENESIS_HASH, reordered)).toBe(
      eventHash(GENESIS_HASH, event),
    );
  });

  it('changes with the previous hash and with any property', () => {
    const hash = eventHash(GENESIS_HASH, event);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(eventHash('1'.repeat(64), event)).not.toBe(hash);
    expect(eventHash(GENESIS_HASH, { ...event, ip: '10.0.0.1' })).not.toBe(
      hash,
    );
  });
});

import { decodeCursor, encodeCursor } from './cursor.js';

describe('submission cursor', () => {
  const position = {
    createdAt: new Date('2025-03-04T05:06:07.089Z'),
    id: '01JNMZ6Q0S8V7K2D3F4G5H6J7K',
  };

  it('round-trips a position with millisecond precision', () => {
    const cursor = encodeCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual(position);
  });

  it('is opaque: no raw id or date in the string', () => {
    const cursor = encodeCursor(position);
    expect(cursor).not.toContain(position.id);
    expect(cursor).not.toContain('2025');
  });

  it.each([
    ['empty', ''],
    ['not base64url', 'abc$def'],
    ['padding', `${encodeCursor(position)}=`],
    ['random text', 'hello-world'],
    ['no separator', Buffer.from('1234567').toString('base64url')],
    ['non-numeric time', Buffer.from('abc:01ABC').toString('base64url')],
    ['negative time', Buffer.from('-5:01ABC').toString('base64url')],
    [
      'time after year 9999',
      Buffer.from('253402300800000:01ABC').toString('base64url'),
    ],
    ['id with a quote', Buffer.from("1:01AB'C").toString('base64url')],
    ['id too long', Buffer.from(`1:${'A'.repeat(33)}`).toString('base64url')],
    ['overlong input', 'A'.repeat(200)],
  ])('rejects %s', (_name, cursor) => {
    expect(decodeCursor(cursor)).toBeUndefined();
  });

  it('rejects a non-canonical spelling of a valid cursor', () => {
    // Leading zeros decode to the same instant but are not what the service issues.
    const padded = Buffer.from(
      `0${position.createdAt.getTime()}:${position.id}`,
    ).toString('base64url');
    expect(decodeCursor(padded)).toBeUndefined();
  });
});

import { chosen } from './delivery-rows.js';

const row = (id: string, target: string, nextAttemptAt: string) => ({
  id,
  accountId: 'acc',
  target,
  nextAttemptAt,
});

describe('chosen (what a claim keeps of its candidates)', () => {
  it('keeps the longest due of each group, longest due first', () => {
    const rows = chosen(
      [
        row('05', 'a', '2026-11-28 10:00:05.000'),
        row('01', 'b', '2026-11-28 10:00:01.000'),
        row('03', 'a', '2026-11-28 10:00:03.000'),
        row('02', 'a', '2026-11-28 10:00:02.000'),
      ],
      [
        { accountId: 'acc', target: 'a', take: 2 },
        { accountId: 'acc', target: 'b', take: 5 },
      ],
    );
    expect(rows.map((r) => r.id)).toEqual(['01', '02', '03']);
  });

  it('orders deliveries due at the same moment by id, whatever order they came in', () => {
    const due = '2026-11-28 10:00:00.000';
    const ids = ['01J0C', '01J0A', '01J0D', '01J0B'];
    const groups = [{ accountId: 'acc', target: 'a', take: 3 }];
    for (const order of [ids, [...ids].reverse()]) {
      const rows = chosen(
        order.map((id) => row(id, 'a', due)),
        groups,
      );
      expect(rows.map((r) => r.id)).toEqual(['01J0A', '01J0B', '01J0C']);
    }
  });
});

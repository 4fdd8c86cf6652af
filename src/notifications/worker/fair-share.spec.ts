import {
  FAST_BATCH,
  FAST_HELD_PER_TARGET,
  HELD_PER_TARGET,
  MAX_PER_TARGET,
  nextSend,
  planClaim,
  type Holdings,
  type Sending,
  type Waiting,
} from './fair-share.js';

const nothingHeld: Holdings = {
  total: 0,
  byAccount: new Map(),
  byTarget: new Map(),
};
const limits = { held: 32, slots: 8 };

function groups(spec: Record<string, number>) {
  return Object.entries(spec).flatMap(([accountId, targets]) =>
    Array.from({ length: targets }, (_, i) => ({
      accountId,
      target: `${accountId}-t${i}`,
    })),
  );
}

function takenBy(plan: ReturnType<typeof planClaim>): Record<string, number> {
  const by: Record<string, number> = {};
  for (const pick of plan.picks) {
    by[pick.accountId] = (by[pick.accountId] ?? 0) + pick.take;
  }
  return by;
}

describe('planClaim: which due deliveries a claim takes', () => {
  it('takes a few of one target, not the whole backlog', () => {
    const plan = planClaim(groups({ a: 1 }), nothingHeld, limits);
    expect(plan.picks).toEqual([
      { accountId: 'a', target: 'a-t0', take: HELD_PER_TARGET },
    ]);
  });

  it("spreads an account's claim over its targets", () => {
    const plan = planClaim(groups({ a: 10 }), nothingHeld, limits);
    expect(takenBy(plan)).toEqual({ a: 32 });
    for (const pick of plan.picks) {
      expect(pick.take).toBeGreaterThanOrEqual(3);
      expect(pick.take).toBeLessThanOrEqual(HELD_PER_TARGET);
    }
  });

  it('gives each account at most its share of what the worker holds', () => {
    const plan = planClaim(groups({ a: 20, b: 20 }), nothingHeld, limits);
    expect(takenBy(plan)).toEqual({ a: 16, b: 16 });
  });

  it('lets an account use what the others cannot', () => {
    const plan = planClaim(groups({ a: 20, b: 1 }), nothingHeld, limits);
    expect(takenBy(plan)).toEqual({ a: 16, b: HELD_PER_TARGET });
  });

  it('takes a newcomer even when another account fills the worker', () => {
    const full: Holdings = {
      total: 32,
      byAccount: new Map([['a', 32]]),
      byTarget: new Map(
        Array.from({ length: 8 }, (_, i) => [`a-t${i}`, HELD_PER_TARGET]),
      ),
    };
    const plan = planClaim(groups({ a: 20, b: 1 }), full, limits);
    expect(plan.picks).toEqual([{ accountId: 'b', target: 'b-t0', take: 1 }]);
  });

  it('never takes more of a target than it may hold', () => {
    const held: Holdings = {
      total: HELD_PER_TARGET,
      byAccount: new Map([['a', HELD_PER_TARGET]]),
      byTarget: new Map([['a-t0', HELD_PER_TARGET]]),
    };
    expect(planClaim(groups({ a: 1 }), held, limits).picks).toEqual([]);
  });

  it('claims a batch of a target whose sends end quickly, once a batch fits', () => {
    const fast = {
      held: 48,
      slots: 8,
      fast: (account: string) => account === 'a',
    };
    const heldOf = (count: number): Holdings => ({
      total: count,
      byAccount: new Map([['a', count]]),
      byTarget: new Map([['a-t0', count]]),
    });
    // Alone, it may hold more than a slow one, and takes all of that at first.
    expect(planClaim(groups({ a: 1 }), nothingHeld, fast).picks).toEqual([
      { accountId: 'a', target: 'a-t0', take: FAST_HELD_PER_TARGET },
    ]);
    expect(FAST_HELD_PER_TARGET).toBeGreaterThan(HELD_PER_TARGET);
    // Not topped up for each send that ends: only once a whole batch fits.
    const almostFull = FAST_HELD_PER_TARGET - FAST_BATCH + 1;
    expect(planClaim(groups({ a: 1 }), heldOf(almostFull), fast).picks).toEqual(
      [],
    );
    expect(
      planClaim(groups({ a: 1 }), heldOf(almostFull - 1), fast).picks,
    ).toEqual([{ accountId: 'a', target: 'a-t0', take: FAST_BATCH }]);
    // An account not known to be fast (none of its sends has ended yet, or they are slow)
    // holds a few of each target, as before.
    expect(planClaim(groups({ b: 1 }), nothingHeld, fast).picks).toEqual([
      { accountId: 'b', target: 'b-t0', take: HELD_PER_TARGET },
    ]);
  });

  it('keeps a fast account to its share of what the worker holds', () => {
    const fast = { held: 48, slots: 8, fast: () => true };
    const plan = planClaim(groups({ a: 1, b: 1 }), nothingHeld, fast);
    expect(takenBy(plan)).toEqual({ a: 24, b: 24 });
  });

  it('goes on after the account served last, so every account gets its turn', () => {
    const busy: Holdings = {
      total: 30,
      byAccount: new Map([
        ['a', 10],
        ['b', 10],
        ['c', 10],
      ]),
      byTarget: new Map(),
    };
    const three = groups({ a: 5, b: 5, c: 5 });
    const oneFree = { held: 31, slots: 8 };
    const first = planClaim(three, busy, oneFree);
    expect(first.picks.map((p) => p.accountId)).toEqual(['a']);
    const second = planClaim(three, busy, oneFree, first.lastAccount);
    expect(second.picks.map((p) => p.accountId)).toEqual(['b']);
    const third = planClaim(three, busy, oneFree, second.lastAccount);
    expect(third.picks.map((p) => p.accountId)).toEqual(['c']);
  });
});

function sendingOf(items: Waiting[]): Sending {
  const byAccount = new Map<string, number>();
  const byTarget = new Map<string, number>();
  for (const { accountId, target } of items) {
    byAccount.set(accountId, (byAccount.get(accountId) ?? 0) + 1);
    byTarget.set(target, (byTarget.get(target) ?? 0) + 1);
  }
  return { byAccount, byTarget, total: items.length };
}

/** Starts sends until nextSend says none; returns who got the slots, in order. */
function fill(
  queue: Waiting[],
  slots: number,
  isSlow: (account: string) => boolean = () => false,
): Waiting[] {
  const started: Waiting[] = [];
  let after: string | undefined;
  for (;;) {
    const index = nextSend(queue, sendingOf(started), slots, isSlow, after);
    if (index < 0) return started;
    const [item] = queue.splice(index, 1);
    started.push(item);
    after = item.accountId;
  }
}

describe('nextSend: which delivery takes a free slot', () => {
  const each = (accountId: string, count: number, sameTarget = false) =>
    Array.from({ length: count }, (_, i) => ({
      accountId,
      target: sameTarget ? `${accountId}-hook` : `${accountId}-t${i}`,
    }));

  it('alternates between accounts', () => {
    const started = fill([...each('a', 10), ...each('b', 10)], 8);
    expect(started.map((s) => s.accountId)).toEqual([
      'a',
      'b',
      'a',
      'b',
      'a',
      'b',
      'a',
      'b',
    ]);
  });

  it(`sends at most ${MAX_PER_TARGET} at once to one target`, () => {
    const queue = each('a', 10, true);
    expect(fill(queue, 8)).toHaveLength(MAX_PER_TARGET);
    expect(queue).toHaveLength(10 - MAX_PER_TARGET);
  });

  it('lets an account alone use every slot while its sends are quick', () => {
    expect(fill(each('a', 20), 8)).toHaveLength(8);
  });

  it('keeps a quarter of the slots from an account whose sends are slow', () => {
    const started = fill(each('a', 20), 8, (account) => account === 'a');
    expect(started).toHaveLength(6);
    // Another account's delivery still finds a slot at once.
    const queue = each('b', 1);
    const index = nextSend(queue, sendingOf(started), 8, () => true, 'a');
    expect(index).toBe(0);
  });

  it('gives a waiting account a slot before another goes past its share', () => {
    const sending = sendingOf(each('a', 4));
    const queue = [
      ...each('a', 5).map((w, i) => ({ ...w, target: `x${i}` })),
      ...each('b', 1),
    ];
    expect(queue[nextSend(queue, sending, 8, () => false, 'b')].accountId).toBe(
      'b',
    );
  });

  it('answers none when every slot is taken', () => {
    expect(
      nextSend(each('a', 3), sendingOf(each('b', 8)), 8, () => false),
    ).toBe(-1);
  });
});

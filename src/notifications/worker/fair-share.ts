// How the worker shares itself between accounts (docs/notifications.md, "Fair and
// bounded"): the worker is shared by every account, so one account's flood, or its slow
// endpoint, must not hold another's notifications back.
//
// Two decisions, both pure so they are unit-tested alone:
// - planClaim(): which due deliveries a claim takes — round robin across the accounts that
//   have some due (and within an account across its targets), each account up to its share
//   of what the worker holds, each target up to a few;
// - nextSend(): which claimed delivery takes a free send slot — round robin across
//   accounts, an account no more than its share of the slots while another waits, a target
//   (a webhook, an address) never more than MAX_PER_TARGET at once, and an account whose
//   sends are slow never every slot.
import type { DueGroup } from '../deliveries/delivery-rows.js';

/** Sends in flight to one target (a webhook, an address) at most. */
export const MAX_PER_TARGET = 2;
/** Deliveries held (claimed, ready or being sent) for one target at most. */
export const HELD_PER_TARGET = 2 * MAX_PER_TARGET;
/**
 * What a target of an account whose sends end quickly may hold, and the batch it is topped
 * up with once it has room for one: a claim per batch, not per send that ends, and the
 * batch claimed while as much again waits to be sent.
 */
export const FAST_HELD_PER_TARGET = 24 * MAX_PER_TARGET;
export const FAST_BATCH = 8 * MAX_PER_TARGET;
/** A send running longer than this makes its account "slow" (see nextSend). */
export const SLOW_SEND_MS = 1000;

/** How many deliveries the worker holds, per account and per target. */
export interface Holdings {
  total: number;
  byAccount: ReadonlyMap<string, number>;
  byTarget: ReadonlyMap<string, number>;
}

export interface ClaimLimits {
  /** Deliveries the worker holds at most when it is not behind (its claim-ahead depth). */
  held: number;
  /** Send slots (WORKER_CONCURRENCY). */
  slots: number;
  /**
   * Whether the account's sends end quickly (none slow, the last one fast): its targets
   * may hold FAST_HELD_PER_TARGET, topped up in batches. Others hold HELD_PER_TARGET.
   */
  fast?: (accountId: string) => boolean;
}

/** Take up to `take` of the group's due deliveries, the longest due first. */
export interface ClaimPick extends DueGroup {
  take: number;
}

export interface ClaimPlan {
  picks: ClaimPick[];
  /** The account served last: the next claim starts after it. */
  lastAccount: string | undefined;
}

function rotateAfter<T>(
  items: readonly T[],
  key: (item: T) => string,
  after: string | undefined,
): T[] {
  if (after === undefined) return [...items];
  const start = items.findIndex((item) => key(item) > after);
  if (start <= 0) return [...items];
  return [...items.slice(start), ...items.slice(0, start)];
}

/**
 * Which due deliveries to claim. `groups` are every (account, target) with deliveries due;
 * `after` is the account the previous claim served last (the round robin goes on from
 * there). An account may hold its share of `limits.held` (the held budget divided among
 * the accounts with something due or held); an account holding nothing yet gets at least
 * one delivery even when the worker is full, so a newcomer never waits behind another
 * account's backlog. One target is held HELD_PER_TARGET times at most, or
 * FAST_HELD_PER_TARGET when its account's sends end quickly (`limits.fast`): such a target
 * is topped up once FAST_BATCH fits, so a claim takes a batch rather than the one delivery
 * whose send just ended.
 */
export function planClaim(
  groups: readonly DueGroup[],
  holdings: Holdings,
  limits: ClaimLimits,
  after?: string,
): ClaimPlan {
  const byAccount = new Map<string, string[]>();
  for (const { accountId, target } of groups) {
    const targets = byAccount.get(accountId) ?? [];
    if (!targets.includes(target)) targets.push(target);
    byAccount.set(accountId, targets);
  }
  const accounts = rotateAfter(
    [...byAccount.keys()].sort(),
    (account) => account,
    after,
  );
  if (accounts.length === 0) return { picks: [], lastAccount: after };
  const competing = new Set([...accounts, ...holdings.byAccount.keys()]);
  const accountCap = Math.max(1, Math.ceil(limits.held / competing.size));
  const newcomers = accounts.filter(
    (account) => (holdings.byAccount.get(account) ?? 0) === 0,
  ).length;
  let budget = Math.max(limits.held - holdings.total, newcomers);

  const taken = new Map<string, number>();
  const takenOfTarget = new Map<string, number>();
  const fast = new Map(
    accounts.map((account) => [account, limits.fast?.(account) ?? false]),
  );
  /** What the target may take in this claim (a fast one: none until a batch has room). */
  const room = (account: string, target: string): number => {
    const held = holdings.byTarget.get(target) ?? 0;
    const cap = fast.get(account) ? FAST_HELD_PER_TARGET : HELD_PER_TARGET;
    if (fast.get(account) && held > cap - FAST_BATCH) return 0;
    return cap - held - (takenOfTarget.get(target) ?? 0);
  };
  const picks = new Map<string, ClaimPick>();
  const nextTarget = new Map<string, number>();
  let lastAccount = after;
  /** Gives the account one more of its next target with room; false when none has. */
  const takeOne = (account: string): boolean => {
    const targets = byAccount.get(account)!;
    const start = nextTarget.get(account) ?? 0;
    for (let i = 0; i < targets.length; i += 1) {
      const target = targets[(start + i) % targets.length];
      if (room(account, target) <= 0) continue;
      const key = `${account}\u0000${target}`;
      const pick = picks.get(key) ?? { accountId: account, target, take: 0 };
      pick.take += 1;
      picks.set(key, pick);
      taken.set(account, (taken.get(account) ?? 0) + 1);
      takenOfTarget.set(target, (takenOfTarget.get(target) ?? 0) + 1);
      nextTarget.set(account, (start + i + 1) % targets.length);
      budget -= 1;
      lastAccount = account;
      return true;
    }
    return false;
  };
  // Every account holding nothing gets one first: a newcomer is never crowded out.
  for (const account of accounts) {
    if (budget === 0) break;
    if ((holdings.byAccount.get(account) ?? 0) === 0) takeOne(account);
  }
  let progress = true;
  while (budget > 0 && progress) {
    progress = false;
    for (const account of accounts) {
      if (budget === 0) break;
      const held =
        (holdings.byAccount.get(account) ?? 0) + (taken.get(account) ?? 0);
      if (held >= accountCap) continue;
      if (takeOne(account)) progress = true;
    }
  }
  return { picks: [...picks.values()], lastAccount };
}

/** A claimed delivery waiting for a send slot. */
export interface Waiting {
  accountId: string;
  target: string;
}

/** What the worker is sending right now. */
export interface Sending {
  byAccount: ReadonlyMap<string, number>;
  byTarget: ReadonlyMap<string, number>;
  total: number;
}

/**
 * Which waiting delivery takes the next free slot, or -1 for none. `queue` is in claim
 * order (each account's deliveries the longest due first); `after` is the account that
 * started the last send; `isSlow(account)` says whether its sends are slow (one has run
 * past SLOW_SEND_MS, or the last one to end took longer, or none has ended yet).
 *
 * A delivery may start when its target has fewer than MAX_PER_TARGET sends in flight and
 * its account has fewer than its share of the slots (the slots divided among the accounts
 * with something to send) — more only while no other account has anything it may send.
 * A slow account never holds the last quarter of the slots: a newcomer finds one free
 * instead of waiting for a slow send to end.
 */
export function nextSend(
  queue: readonly Waiting[],
  sending: Sending,
  slots: number,
  isSlow: (accountId: string) => boolean,
  after?: string,
): number {
  if (sending.total >= slots) return -1;
  // The first delivery of each account whose target is not at its limit.
  const first = new Map<string, number>();
  queue.forEach((item, index) => {
    if (first.has(item.accountId)) return;
    if ((sending.byTarget.get(item.target) ?? 0) >= MAX_PER_TARGET) return;
    first.set(item.accountId, index);
  });
  if (first.size === 0) return -1;
  const active = new Set([...first.keys(), ...sending.byAccount.keys()]);
  const share = Math.max(1, Math.ceil(slots / active.size));
  const reserve = slots >= 4 ? Math.floor(slots / 4) : 0;
  const order = rotateAfter([...first.keys()].sort(), (a) => a, after);
  for (const account of order) {
    const busy = sending.byAccount.get(account) ?? 0;
    if (isSlow(account) && busy >= slots - reserve) continue;
    if (busy >= share && first.size > 1) continue;
    return first.get(account)!;
  }
  return -1;
}

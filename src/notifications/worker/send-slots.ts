// The worker's send slots: what is being sent, counted per account and per target, and
// how long each account's sends take — what the fair share decides on (fair-share.ts).
// An account is slow while one of its sends has run past SLOW_SEND_MS, when its last send
// took longer, or before any has ended: a flood at a slow endpoint never takes every
// slot, and neither do an account's first sends until one has ended quickly.
import type { Delivery } from '../deliveries/delivery.entity.js';
import { SLOW_SEND_MS, type Holdings, type Sending } from './fair-share.js';

/** Accounts whose last send time is remembered at most (the oldest are forgotten). */
const MAX_ACCOUNTS = 1000;

function count(map: Map<string, number>, key: string, by: number): void {
  const next = (map.get(key) ?? 0) + by;
  if (next === 0) map.delete(key);
  else map.set(key, next);
}

type Slotted = Pick<Delivery, 'id' | 'accountId' | 'target'>;

export class SendSlots {
  /** Sends in flight, by delivery id. */
  readonly sends = new Map<string, Promise<void>>();
  private readonly byAccount = new Map<string, number>();
  private readonly byTarget = new Map<string, number>();
  /** Duration of each account's last finished send, in ms. */
  private readonly last = new Map<string, number>();
  /** Start times of each account's sends in flight. */
  private readonly open = new Map<string, Set<number>>();

  get size(): number {
    return this.sends.size;
  }

  /** Runs `send` in a slot; the slot is free again when it settles, then `after` runs. */
  take(delivery: Slotted, send: () => Promise<void>, after: () => void): void {
    const { id, accountId, target } = delivery;
    count(this.byAccount, accountId, 1);
    count(this.byTarget, target, 1);
    const open = this.open.get(accountId) ?? new Set<number>();
    // Two sends may start within the same fraction of a millisecond.
    let at = performance.now();
    while (open.has(at)) at += 1e-6;
    open.add(at);
    this.open.set(accountId, open);
    const work = send().finally(() => {
      open.delete(at);
      if (open.size === 0) this.open.delete(accountId);
      this.last.delete(accountId);
      this.last.set(accountId, performance.now() - at);
      if (this.last.size > MAX_ACCOUNTS) {
        this.last.delete(this.last.keys().next().value!);
      }
      count(this.byAccount, accountId, -1);
      count(this.byTarget, target, -1);
      this.sends.delete(id);
      after();
    });
    this.sends.set(id, work);
  }

  /** What is being sent, as nextSend() reads it. */
  sending(): Sending {
    return {
      byAccount: this.byAccount,
      byTarget: this.byTarget,
      total: this.sends.size,
    };
  }

  /** Being sent plus `waiting`, per account and per target, as planClaim() reads it. */
  holdings(waiting: readonly Slotted[]): Holdings {
    const byAccount = new Map(this.byAccount);
    const byTarget = new Map(this.byTarget);
    for (const { accountId, target } of waiting) {
      count(byAccount, accountId, 1);
      count(byTarget, target, 1);
    }
    return { total: waiting.length + this.sends.size, byAccount, byTarget };
  }

  isSlow(accountId: string, now = performance.now()): boolean {
    const last = this.last.get(accountId);
    if (last === undefined || last > SLOW_SEND_MS) return true;
    for (const at of this.open.get(accountId) ?? []) {
      if (now - at > SLOW_SEND_MS) return true;
    }
    return false;
  }
}

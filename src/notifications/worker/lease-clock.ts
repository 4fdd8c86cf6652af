// The worker's own view of the leases it holds: when each runs out, as far as this process
// can be sure — the time the claim or renewal that set it was sent, plus the lease's length
// (the database's copy was written later, so it never ends sooner). A delivery is started
// only while enough of its lease is left for the next renewal to extend it: one whose lease
// may have run out (the process stalled, renewals did not get through) may have been
// claimed by another worker since, and sending it here too would deliver it twice.
export class LeaseClock {
  private readonly until = new Map<string, number>();

  /**
   * @param leaseMs how long a claim or renewal holds a delivery
   * @param startMarginMs the least lease a send may start with
   */
  constructor(
    private readonly leaseMs: number,
    private readonly startMarginMs: number,
  ) {}

  /** A claim or renewal of `ids`, sent at `sentAt`, succeeded. */
  held(ids: Iterable<string>, sentAt: number): void {
    for (const id of ids) this.until.set(id, sentAt + this.leaseMs);
  }

  /** Whether a send of `id` may start at `now`. */
  canStart(id: string, now: number): boolean {
    const until = this.until.get(id);
    return until !== undefined && until - now >= this.startMarginMs;
  }

  /** Of `ids`, those whose lease has not run out at `now`: the ones to renew. */
  current(ids: Iterable<string>, now: number): string[] {
    return [...ids].filter((id) => (this.until.get(id) ?? 0) > now);
  }

  forget(id: string): void {
    this.until.delete(id);
  }
}

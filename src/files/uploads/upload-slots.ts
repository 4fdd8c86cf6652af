// How many upload bodies one client address may send at once (UPLOAD_CONCURRENCY_PER_IP,
// docs/files.md): a multipart body to a form with file fields takes a slot of its address
// before a byte of it is read, and gives it back when its upload ends. One address holding
// more than a few slow uploads would tie up connections and storage writes for everyone;
// the next one is refused with 429 at once. Counted by each instance for itself.
import { TooManyRequestsException } from '../../common/errors/errors.js';

export function tooManyUploadsMessage(limit: number): string {
  return `Too many uploads at once: at most ${limit} from one address. Retry when one has finished.`;
}

export class UploadSlots {
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly limit: number) {}

  /**
   * Takes a slot of `address`, or throws 429 (Retry-After: 1) when all are taken. The
   * function returned gives it back; calling it again does nothing.
   */
  take(address: string): () => void {
    const taken = this.inFlight.get(address) ?? 0;
    if (taken >= this.limit) {
      throw new TooManyRequestsException(tooManyUploadsMessage(this.limit), 1);
    }
    this.inFlight.set(address, taken + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.inFlight.get(address) ?? 1) - 1;
      if (left > 0) this.inFlight.set(address, left);
      else this.inFlight.delete(address);
    };
  }

  /** Slots taken by `address` now. */
  takenBy(address: string): number {
    return this.inFlight.get(address) ?? 0;
  }
}

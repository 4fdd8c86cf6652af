// The worker loop's sleep: a timed wait that new work cuts short. A wake that comes while
// the loop is busy is kept, so the next sleep returns at once and nothing waits a poll.
export class WakeSignal {
  private wakeUp: (() => void) | undefined;
  private woken = false;

  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  sleep(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = undefined;
        this.woken = false;
        done();
      };
    });
  }
}

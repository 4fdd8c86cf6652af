import { takeTurn, waitingTurns } from './event-loop-turns.js';

describe('takeTurn', () => {
  it('grants turns in the order they were asked for, one job at a time', async () => {
    const order: string[] = [];
    const job = async (name: string) => {
      for (let piece = 1; piece <= 3; piece++) {
        await takeTurn();
        order.push(`${name}${piece}`);
      }
    };
    await Promise.all([job('a'), job('b'), job('c')]);
    expect(order).toEqual([
      'a1',
      'b1',
      'c1',
      'a2',
      'b2',
      'c2',
      'a3',
      'b3',
      'c3',
    ]);
    expect(waitingTurns()).toBe(0);
  });

  it('lets timers and I/O callbacks run between two turns', async () => {
    const events: string[] = [];
    const job = async () => {
      await takeTurn();
      events.push('turn 1');
      // Ready at the next loop iteration, like a request that arrived meanwhile.
      setTimeout(() => events.push('timer'), 0);
      await new Promise((resolve) => setTimeout(resolve, 2));
      await takeTurn();
      events.push('turn 2');
    };
    const other = async () => {
      await takeTurn();
      events.push('other turn');
    };
    await Promise.all([job(), other()]);
    expect(events.indexOf('timer')).toBeLessThan(events.indexOf('turn 2'));
  });

  it('never runs two granted turns in the same loop iteration', async () => {
    const iterations: number[] = [];
    let iteration = 0;
    const ticker = setInterval(() => iteration++, 0);
    await Promise.all(
      Array.from({ length: 5 }, async () => {
        await takeTurn();
        iterations.push(iteration);
        // A piece of synchronous work long enough for the interval to come due.
        const until = performance.now() + 3;
        while (performance.now() < until);
      }),
    );
    clearInterval(ticker);
    for (let i = 1; i < iterations.length; i++) {
      expect(iterations[i]).toBeGreaterThan(iterations[i - 1]);
    }
  });
});

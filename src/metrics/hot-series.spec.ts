import { Counter, Histogram, Registry } from 'prom-client';
import { HotCounter, HotHistogram } from './hot-series.js';

const BUCKETS = [0.01, 0.1, 1];
const OBSERVED = [0.005, 0.01, 0.05, 0.5, 1, 3, 0.2];

describe('hot series', () => {
  it('scrape exactly as prom-client histograms do', async () => {
    const hot = new Registry();
    const histogram = new HotHistogram(
      'latency_seconds',
      'How long.',
      BUCKETS,
      hot,
    );
    const a = histogram.cell({ route: '/a', method: 'GET' });
    const b = histogram.cell({ route: '/b', method: 'POST' });
    const reference = new Registry();
    const expected = new Histogram({
      name: 'latency_seconds',
      help: 'How long.',
      labelNames: ['route', 'method'],
      buckets: BUCKETS,
      registers: [reference],
    });
    for (const value of OBSERVED) {
      a.observe(value);
      expected.observe({ route: '/a', method: 'GET' }, value);
    }
    b.observe(0.02);
    expected.observe({ route: '/b', method: 'POST' }, 0.02);
    expect(await hot.metrics()).toBe(await reference.metrics());
  });

  it('scrape exactly as prom-client counters do, every series from 0', async () => {
    const hot = new Registry();
    const counter = new HotCounter({
      name: 'posts_total',
      help: 'Posts.',
      labelNames: ['outcome'],
      registers: [hot],
    });
    const accepted = counter.cell({ outcome: 'accepted' });
    counter.cell({ outcome: 'spam' });
    const reference = new Registry();
    const expected = new Counter({
      name: 'posts_total',
      help: 'Posts.',
      labelNames: ['outcome'],
      registers: [reference],
    });
    expected.inc({ outcome: 'accepted' }, 0);
    expected.inc({ outcome: 'spam' }, 0);
    expect(await hot.metrics()).toBe(await reference.metrics());

    accepted.inc();
    accepted.inc();
    expected.inc({ outcome: 'accepted' }, 2);
    expect(await hot.metrics()).toBe(await reference.metrics());
    // Counted once: a second scrape adds nothing new.
    expect(await hot.metrics()).toBe(await reference.metrics());
  });
});

import { runInNewContext } from 'node:vm';
import {
  compactHeap,
  holdWhileStarting,
  maglevOnByDefault,
  offersLastResortCollection,
  setByOperator,
  V8_GROWTH_FACTOR,
} from './start-footprint.js';

const NODE_24 = {
  execArgv: [] as string[],
  nodeOptions: '',
  v8Version: '13.6.233.17-node.37',
  arch: 'x64',
};
const NODE_20 = { ...NODE_24, v8Version: '11.3.244.8-node.33' };

function recorded(runtime: typeof NODE_24) {
  const flags: string[] = [];
  const release = holdWhileStarting((flag) => flags.push(flag), runtime);
  return { flags, release };
}

describe('holdWhileStarting', () => {
  it('holds the young generation and the optimising compilers until released, then restores V8’s defaults once', () => {
    const { flags, release } = recorded(NODE_24);
    expect(flags).toEqual([
      '--semi-space-growth-factor=1',
      '--no-turbofan',
      '--no-maglev',
    ]);
    release();
    release();
    expect(flags.slice(3)).toEqual([
      `--semi-space-growth-factor=${V8_GROWTH_FACTOR}`,
      '--turbofan',
      '--maglev',
    ]);
  });

  it('leaves Maglev alone where it is off by default (Node 20)', () => {
    const { flags, release } = recorded(NODE_20);
    release();
    expect(flags).toEqual([
      '--semi-space-growth-factor=1',
      '--no-turbofan',
      `--semi-space-growth-factor=${V8_GROWTH_FACTOR}`,
      '--turbofan',
    ]);
  });

  it('leaves what the operator set alone', () => {
    const growth = recorded({
      ...NODE_24,
      nodeOptions: '--semi-space-growth-factor=4',
    });
    growth.release();
    expect(growth.flags).toEqual([
      '--no-turbofan',
      '--no-maglev',
      '--turbofan',
      '--maglev',
    ]);
    for (const runtime of [
      { ...NODE_24, execArgv: ['--no-maglev'] },
      { ...NODE_24, nodeOptions: '--jitless' },
    ]) {
      const compilers = recorded(runtime);
      compilers.release();
      expect(compilers.flags).toEqual([
        '--semi-space-growth-factor=1',
        `--semi-space-growth-factor=${V8_GROWTH_FACTOR}`,
      ]);
    }
  });
});

describe('setByOperator', () => {
  it('sees a flag on the command line and in NODE_OPTIONS, in every spelling', () => {
    const seen = (execArgv: string[], nodeOptions = '') =>
      setByOperator(['semi-space-growth-factor', 'maglev'], {
        execArgv,
        nodeOptions,
      });
    expect(seen(['--semi-space-growth-factor=4'])).toBe(true);
    expect(
      seen([], '--max-old-space-size=512 --semi_space_growth_factor=3'),
    ).toBe(true);
    expect(seen(['--semi-space-growth-factor', '4'])).toBe(true);
    expect(seen(['--no-maglev'])).toBe(true);
    expect(seen([], '--nomaglev')).toBe(true);
    expect(seen(['--maglev'])).toBe(true);
  });

  it('is not fooled by other flags', () => {
    const seen = (execArgv: string[], nodeOptions = '') =>
      setByOperator(['semi-space-growth-factor', 'opt'], {
        execArgv,
        nodeOptions,
      });
    expect(seen(['--max-semi-space-size=8'], '--enable-source-maps')).toBe(
      false,
    );
    expect(seen(['--optimize-for-size'])).toBe(false);
    expect(seen([])).toBe(false);
  });
});

describe('maglevOnByDefault', () => {
  it('is true from V8 12 on x64 and arm64 only', () => {
    expect(maglevOnByDefault(NODE_24)).toBe(true);
    expect(maglevOnByDefault({ ...NODE_24, arch: 'arm64' })).toBe(true);
    expect(maglevOnByDefault({ ...NODE_24, arch: 's390x' })).toBe(false);
    expect(maglevOnByDefault(NODE_20)).toBe(false);
  });
});

describe('compactHeap', () => {
  it('is offered from V8 12 (Node 22) on', () => {
    expect(offersLastResortCollection('11.3.244.8-node.33')).toBe(false);
    expect(offersLastResortCollection('12.4.254.21-node.33')).toBe(true);
    expect(offersLastResortCollection('13.6.233.17-node.37')).toBe(true);
  });

  it('collects without leaving gc() exposed to contexts created afterwards', () => {
    expect(() => compactHeap()).not.toThrow();
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });
});

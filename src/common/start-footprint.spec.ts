import { runInNewContext } from 'node:vm';
import {
  compactHeap,
  growthFactorSetByOperator,
  offersLastResortCollection,
  holdYoungGenerationWhileStarting,
  V8_GROWTH_FACTOR,
} from './start-footprint.js';

describe('holdYoungGenerationWhileStarting', () => {
  it('holds the young generation at its initial size until released, then restores V8’s growth once', () => {
    const flags: string[] = [];
    const release = holdYoungGenerationWhileStarting(
      (flag) => flags.push(flag),
      false,
    );
    expect(flags).toEqual(['--semi-space-growth-factor=1']);
    release();
    release();
    expect(flags).toEqual([
      '--semi-space-growth-factor=1',
      `--semi-space-growth-factor=${V8_GROWTH_FACTOR}`,
    ]);
  });

  it('leaves a growth factor the operator set alone', () => {
    const flags: string[] = [];
    holdYoungGenerationWhileStarting((flag) => flags.push(flag), true)();
    expect(flags).toEqual([]);
  });
});

describe('growthFactorSetByOperator', () => {
  it('sees the flag on the command line and in NODE_OPTIONS, in either spelling', () => {
    expect(
      growthFactorSetByOperator(['--semi-space-growth-factor=4'], ''),
    ).toBe(true);
    expect(
      growthFactorSetByOperator(
        [],
        '--max-old-space-size=512 --semi_space_growth_factor=3',
      ),
    ).toBe(true);
    expect(
      growthFactorSetByOperator(['--semi-space-growth-factor', '4'], ''),
    ).toBe(true);
  });

  it('is not fooled by other flags', () => {
    expect(
      growthFactorSetByOperator(
        ['--max-semi-space-size=8'],
        '--enable-source-maps',
      ),
    ).toBe(false);
    expect(growthFactorSetByOperator([], '')).toBe(false);
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

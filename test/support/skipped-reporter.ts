// Prints, after vitest's summary, which tests were skipped and why, so "5 skipped" is never
// a mystery. Reasons come from describeWhen() (test/support/skips.ts).
import type {
  Reporter,
  TestCase,
  TestModule,
  TestSuite,
  Vitest,
} from 'vitest/node';
import { SKIP_REASON_PREFIX } from './skips.js';

interface Group {
  suite: string;
  reason: string;
  count: number;
}

/** The reason carried by the nearest enclosing suite (or the test itself, or its note). */
function reasonOf(
  test: TestCase,
  namePattern: RegExp | undefined,
): { suite: string; reason: string } {
  const note = (test.result() as { note?: string }).note;
  let node: TestCase | TestSuite | TestModule = test;
  while (node.type !== 'module') {
    const at = node.name.indexOf(SKIP_REASON_PREFIX);
    if (at >= 0) {
      return {
        suite: node.name.slice(0, at).trim(),
        reason: node.name.slice(at + SKIP_REASON_PREFIX.length),
      };
    }
    node = node.parent;
  }
  if (note) return { suite: test.fullName, reason: note };
  if (namePattern && !namePattern.test(test.fullName)) {
    return {
      suite: test.module.relativeModuleId,
      reason: 'not run: left out by the test name filter (-t)',
    };
  }
  // Not skipped on purpose: a hook of an enclosing suite failed, so its tests never ran.
  for (
    let parent: TestSuite | TestModule = test.parent;
    ;
    parent = (parent as TestSuite).parent
  ) {
    if (parent.errors().length > 0) {
      return {
        suite: parent.type === 'module' ? parent.moduleId : parent.fullName,
        reason: `not run: a hook of this ${parent.type === 'module' ? 'file' : 'suite'} failed (its error is above)`,
      };
    }
    if (parent.type === 'module') break;
  }
  return {
    suite: test.fullName,
    reason: `no reason given (${test.module.relativeModuleId}): skip through describeWhen (test/support/skips.ts), which names one`,
  };
}

export default class SkippedReporter implements Reporter {
  private namePattern: RegExp | undefined;

  onInit(vitest: Vitest): void {
    this.namePattern = vitest.config.testNamePattern;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const groups = new Map<string, Group>();
    for (const module of testModules) {
      for (const test of module.children.allTests('skipped')) {
        const { suite, reason } = reasonOf(test, this.namePattern);
        const key = `${suite}\0${reason}`;
        const group = groups.get(key) ?? { suite, reason, count: 0 };
        group.count += 1;
        groups.set(key, group);
      }
    }
    if (groups.size === 0) return;
    const total = [...groups.values()].reduce((sum, g) => sum + g.count, 0);
    const lines = [
      '',
      `Skipped ${total} test${total === 1 ? '' : 's'}, and why:`,
      ...[...groups.values()].map(
        (g) => `  ${g.count} × ${g.suite}: ${g.reason}`,
      ),
      '',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}

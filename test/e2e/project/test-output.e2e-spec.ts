// What `npm test` prints is part of the developer's experience: every skipped test says why
// (through describeWhen, which the skipped-tests reporter reads), and Nest prints no debug
// lines of services that unit specs build without an application.
import { Logger } from '@nestjs/common';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter(
      (e) => e.isFile() && /\.(spec|e2e-spec|browser-spec)\.ts$/.test(e.name),
    )
    .map((e) => join(e.parentPath, e.name));
}

describe('test output', () => {
  it('skips only through describeWhen, which names the reason', () => {
    // A skip or todo whose name carries SKIP_REASON_PREFIX (as describeWhen writes it)
    // names its reason too.
    const bare = [...sources('src'), ...sources('test')].flatMap((file) => {
      const lines = readFileSync(file, 'utf8').split('\n');
      return lines
        .map((line, i) => ({
          line,
          at: `${file}:${i + 1}`,
          call: lines.slice(i, i + 3).join('\n'),
        }))
        .filter(
          ({ line, call }) =>
            /\b(describe|it|test)\s*\.\s*(skip|skipIf|runIf|todo)\b|\?\s*describe\s*:\s*describe\.skip/.test(
              line,
            ) && !call.includes('SKIP_REASON_PREFIX'),
        )
        .map(({ at, line }) => `${at}: ${line.trim()}`);
    });
    expect(bare).toEqual([]);
  });

  it("prints no debug line from Nest's logger outside an application", () => {
    const written: string[] = [];
    const spies = [process.stdout, process.stderr].map((stream) =>
      vi.spyOn(stream, 'write').mockImplementation((chunk: unknown) => {
        written.push(String(chunk));
        return true;
      }),
    );
    try {
      new Logger('CommitQueue').debug('Committed a batch of 3 submissions');
      new Logger('CommitQueue').verbose('detail');
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(written).toEqual([]);
  });
});

// One naming rule for failures (docs/architecture.md, "One error shape"): a class that is
// one of Nest's HTTP exceptions (it extends HttpException, directly or through another)
// ends in `Exception`; a plain internal error (it extends Error) ends in `Error`. Read from
// the sources, so a class added later is held to it without touching this spec.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = dirname(fileURLToPath(import.meta.url));
const CLASS = /\bclass\s+(\w+)\s+extends\s+(\w+)/g;
/** Nest's own exceptions, which every HTTP failure of ours descends from. */
const NEST_HTTP = /^(HttpException|\w+Exception)$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')
      ? [path]
      : [];
  });
}

/** Every class of src/ that extends another: its name -> [its parent, where it is]. */
function classes(): Map<string, { parent: string; file: string }> {
  const found = new Map<string, { parent: string; file: string }>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const [, name, parent] of text.matchAll(CLASS)) {
      found.set(name, { parent, file: relative(SRC, file) });
    }
  }
  return found;
}

/** 'http' when `name` descends from an HttpException, 'error' from Error, else null. */
function kindOf(
  name: string,
  all: Map<string, { parent: string }>,
): 'http' | 'error' | null {
  const seen = new Set<string>();
  let current = name;
  while (!seen.has(current)) {
    seen.add(current);
    const own = all.get(current);
    if (!own) {
      if (current === 'Error') return 'error';
      return NEST_HTTP.test(current) ? 'http' : null;
    }
    current = own.parent;
  }
  return null;
}

describe('failure class names', () => {
  const all = classes();

  it('finds the failures of src/ (the rule is not checked against nothing)', () => {
    expect(kindOf('ValidationFailedException', all)).toBe('http');
    expect(kindOf('TemporarilyUnavailableException', all)).toBe('http');
    expect(kindOf('QueueFullException', all)).toBe('http');
    expect(kindOf('FileTooLargeError', all)).toBe('error');
    expect(kindOf('AppValidationPipe', all)).toBeNull();
  });

  it('ends every HTTP exception in Exception and every plain error in Error', () => {
    const misnamed: string[] = [];
    for (const [name, { file }] of all) {
      const kind = kindOf(name, all);
      if (kind === 'http' && !name.endsWith('Exception')) {
        misnamed.push(`${file}: ${name} is an HttpException`);
      }
      if (kind === 'error' && !name.endsWith('Error')) {
        misnamed.push(`${file}: ${name} is a plain Error`);
      }
    }
    expect(misnamed).toEqual([]);
  });
});

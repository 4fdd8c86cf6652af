// Every regular expression of the server — in TypeScript sources and in the dashboard's
// templates — is found by parsing the code (not by a list someone has to keep up to date)
// and handed to recheck, a ReDoS checker. A pattern that can backtrack super-linearly
// fails the suite, so a slow pattern on request data cannot slip in unnoticed.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { check } from 'recheck';
import ts from 'typescript';

const SRC = import.meta.dirname;
/** Browser code: it runs on the visitor's own input in the visitor's own tab. */
const CLIENT_SIDE = new Set(['dashboard/public/dashboard.js']);
/**
 * `new RegExp(<not a literal>)` sites whose source cannot reach request data, with why.
 * Any other dynamic pattern fails the test: its source could not be checked.
 */
const DYNAMIC_ALLOWED: Record<string, string> = {
  'submissions/tools/bench-submissions.ts':
    'a /proc/<pid>/status field name chosen by the benchmark itself',
};

interface FoundPattern {
  where: string;
  source: string;
  flags: string;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** The JavaScript inside an Eta template's `<% … %>` tags, one tag per line. */
function templateCode(text: string): string {
  return [...text.matchAll(/<%[=~_-]?([\s\S]*?)[-_]?%>/g)]
    .map((match) => match[1])
    .join(';\n');
}

function patternsIn(
  file: string,
  code: string,
): {
  found: FoundPattern[];
  dynamic: string[];
} {
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true);
  const found: FoundPattern[] = [];
  const dynamic: string[] = [];
  const where = (node: ts.Node) =>
    `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (ts.isRegularExpressionLiteral(node)) {
      const text = node.getText();
      const end = text.lastIndexOf('/');
      found.push({
        where: where(node),
        source: text.slice(1, end),
        flags: text.slice(end + 1),
      });
    } else if (
      (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'RegExp'
    ) {
      const [pattern, flags] = node.arguments ?? [];
      if (pattern && ts.isStringLiteralLike(pattern)) {
        found.push({
          where: where(node),
          source: pattern.text,
          flags: flags && ts.isStringLiteralLike(flags) ? flags.text : '',
        });
      } else {
        dynamic.push(where(node));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { found, dynamic };
}

function serverPatterns(): { found: FoundPattern[]; dynamic: string[] } {
  const found: FoundPattern[] = [];
  const dynamic: string[] = [];
  for (const path of filesUnder(SRC)) {
    const file = relative(SRC, path);
    if (CLIENT_SIDE.has(file) || file.endsWith('.spec.ts')) continue;
    let code: string;
    if (file.endsWith('.ts') || file.endsWith('.js')) {
      code = readFileSync(path, 'utf8');
    } else if (file.endsWith('.eta')) {
      code = templateCode(readFileSync(path, 'utf8'));
    } else {
      continue;
    }
    const result = patternsIn(file, code);
    found.push(...result.found);
    dynamic.push(...result.dynamic);
  }
  return { found, dynamic };
}

/** Fixed seed and limits, so the verdict is the same on every run and machine. */
const PARAMS = { randomSeed: 0, timeout: 60_000 };

describe('regular expressions of the server', () => {
  const { found, dynamic } = serverPatterns();

  it('finds the patterns in the sources and templates', () => {
    const files = new Set(found.map((p) => p.where.split(':')[0]));
    expect(files).toContain('submit/submission-validator.ts');
    expect(files).toContain('common/values/email-address.ts');
    expect(files).toContain('dashboard/views/partials/input.eta');
    expect(found.length).toBeGreaterThan(40);
  });

  it('builds no pattern from a runtime string, except where listed with a reason', () => {
    const unlisted = dynamic.filter(
      (where) => !Object.hasOwn(DYNAMIC_ALLOWED, where.split(':')[0]),
    );
    expect(unlisted).toEqual([]);
  });

  it('recheck flags a pattern that backtracks (the checker itself works)', async () => {
    // The sign-up email pattern that took 11 s on "a@" + 99,000 dots + "@".
    const result = await check('^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', '', PARAMS);
    expect(result.status).toBe('vulnerable');
  });

  it('has no pattern that can backtrack super-linearly', async () => {
    const verdicts: string[] = [];
    for (const pattern of found) {
      const result = await check(pattern.source, pattern.flags, PARAMS);
      if (result.status !== 'safe') {
        const detail =
          result.status === 'vulnerable'
            ? `${result.complexity.summary}, e.g. ${result.attack.pattern}`
            : result.error.kind;
        verdicts.push(
          `${pattern.where} /${pattern.source}/${pattern.flags}: ${result.status} (${detail})`,
        );
      }
    }
    expect(verdicts).toEqual([]);
  }, 600_000);
});

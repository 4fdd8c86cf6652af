// Every @Injectable() class's name ends in its role (docs/architecture.md, "Names"): the
// roles are the "Roles: …" line there, read here, so the list has one home.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const SRC = import.meta.dirname;

/** Injectables still to be renamed, with the name each is to take; an entry goes once it is. */
const PENDING: Record<string, string> = {};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')
      ? [path]
      : [];
  });
}

function isInjectable(decorator: ts.Decorator): boolean {
  const call = decorator.expression;
  return (
    ts.isCallExpression(call) &&
    ts.isIdentifier(call.expression) &&
    call.expression.text === 'Injectable'
  );
}

/** The @Injectable() classes of the sources, by name, with the file each is in. */
function injectables(): Map<string, string> {
  const found = new Map<string, string>();
  for (const path of sourceFiles(SRC)) {
    const code = readFileSync(path, 'utf8');
    if (!code.includes('@Injectable(')) continue;
    const source = ts.createSourceFile(path, code, ts.ScriptTarget.Latest);
    const visit = (node: ts.Node): void => {
      if (
        ts.isClassDeclaration(node) &&
        node.name &&
        (ts.getDecorators(node) ?? []).some(isInjectable)
      ) {
        found.set(node.name.text, relative(SRC, path));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

function roles(): string[] {
  const doc = readFileSync(join(SRC, '..', 'docs', 'architecture.md'), 'utf8');
  const line = doc.split('\n').find((text) => text.startsWith('Roles: '));
  return (line ?? '')
    .slice('Roles: '.length)
    .split(',')
    .map((role) => role.trim())
    .filter((role) => role !== '');
}

function hasRole(name: string, list: readonly string[]): boolean {
  return list.some((role) => name.endsWith(role));
}

describe('the names of injectables', () => {
  const found = injectables();
  const list = roles();

  it('reads the roles and the injectables', () => {
    expect(list).toContain('Repository');
    expect(list).toContain('Service');
    expect(found.get('FormRepository')).toBe('forms/form.repository.ts');
    expect(found.get('AccessibleFormPipe')).toBe(
      'forms/routes/accessible-form.decorator.ts',
    );
  });

  it('end in one of the roles docs/architecture.md lists', () => {
    const without = [...found]
      .filter(([name]) => !hasRole(name, list) && !(name in PENDING))
      .map(([name, file]) => `${name} (${file})`);
    expect(without).toEqual([]);
  });

  it('keep the list of pending renames true', () => {
    const stale = Object.entries(PENDING)
      .filter(([name, next]) => !found.has(name) || !hasRole(next, list))
      .map(([name]) => name);
    expect(stale).toEqual([]);
  });
});

// The folders of src/ depend on one another in one direction only (docs/architecture.md,
// "Dependency direction"): no folder may reach itself through the imports of the others.
// Files at the top of src/ (app.module.ts, main.ts, worker.ts, cli.ts…) compose the rest
// and count as one more node, so no folder may import them either.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = dirname(fileURLToPath(import.meta.url));
const ROOT = '(src)';
/** `import … from './x.js'`, `export … from '../y.js'`, `import('./z.js')`. */
const RELATIVE_IMPORT =
  /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')
      ? [path]
      : [];
  });
}

/** The folder of `file` right under `base`, or `top` for a file directly in it. */
function folderOf(base: string, file: string, top: string): string {
  const parts = relative(base, file).split(sep);
  return parts.length > 1 ? parts[0] : top;
}

/**
 * folder -> folder -> the imports (file -> file) that make the arrow, between the folders
 * right under `base`; the files directly in it are the node `top`, but for `composers`
 * (which import the rest to put it together, as app.module.ts does), which are left out.
 */
function folderImports(
  base: string,
  top: string,
  composers: readonly string[] = [],
): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const file of sourceFiles(base)) {
    if (composers.includes(relative(base, file))) continue;
    const text = readFileSync(file, 'utf8');
    for (const [, specifier] of text.matchAll(RELATIVE_IMPORT)) {
      const target = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
      if (relative(base, target).startsWith('..')) continue;
      const from = folderOf(base, file, top);
      const to = folderOf(base, target, top);
      if (from === to) continue;
      const arrows = graph.get(from) ?? new Map<string, string[]>();
      graph.set(from, arrows);
      const why = arrows.get(to) ?? [];
      arrows.set(to, why);
      why.push(`${relative(SRC, file)} -> ${relative(SRC, target)}`);
    }
  }
  return graph;
}

/** Every folder that reaches itself, with one loop it takes. */
function cycles(graph: Map<string, Map<string, string[]>>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const walk = (node: string, path: string[]): void => {
    const at = path.indexOf(node);
    if (at >= 0) {
      found.push([...path.slice(at), node]);
      return;
    }
    if (done.has(node)) return;
    for (const next of graph.get(node)?.keys() ?? []) {
      walk(next, [...path, node]);
    }
    done.add(node);
  };
  for (const node of graph.keys()) walk(node, []);
  return found;
}

function explain(graph: Map<string, Map<string, string[]>>): string[] {
  return cycles(graph).map((loop) =>
    loop
      .slice(1)
      .map((to, i) => {
        const from = loop[i];
        return `${from} -> ${to} (${graph.get(from)!.get(to)![0]})`;
      })
      .join(', '),
  );
}

describe('the folders of src/', () => {
  const graph = folderImports(SRC, ROOT);

  it('reads the imports between folders', () => {
    expect(graph.get('submit')?.has('forms')).toBe(true);
    expect(graph.get(ROOT)?.has('dashboard')).toBe(true);
  });

  it('import one another without a cycle', () => {
    expect(explain(graph)).toEqual([]);
  });
});

// Inside dashboard/ the same rule holds: its shared files (the context, views, helpers,
// error pages) sit below session/, which sits below forms/ and account/; the module and
// the Fastify setup put them together.
describe('the folders of dashboard/', () => {
  const DASHBOARD = join(SRC, 'dashboard');
  const graph = folderImports(DASHBOARD, '(dashboard)', [
    'dashboard.module.ts',
  ]);

  it('reads the imports between its folders', () => {
    expect(graph.get('forms')?.has('(dashboard)')).toBe(true);
    expect(graph.get('forms')?.has('session')).toBe(true);
  });

  it('import one another without a cycle', () => {
    expect(explain(graph)).toEqual([]);
  });

  it('never import a sub-folder from the shared files', () => {
    expect([...(graph.get('(dashboard)')?.keys() ?? [])]).toEqual([]);
  });
});

// The layer order docs/architecture.md states ("Layers: …" under "Dependency direction"):
// every folder of src/ has its place, and no import runs from a lower layer to a higher one.
describe('the layers docs/architecture.md names', () => {
  const doc = readFileSync(join(SRC, '..', 'docs', 'architecture.md'), 'utf8');
  const line = doc.split('\n').find((text) => text.startsWith('Layers: '));
  const layers = (line ?? '')
    .slice('Layers: '.length)
    .split(' < ')
    .map((layer) =>
      layer === ROOT
        ? [ROOT]
        : [...layer.matchAll(/`([a-z-]+)\/`/g)].map(([, name]) => name),
    );
  const rank = new Map(
    layers.flatMap((names, at) => names.map((name) => [name, at] as const)),
  );
  const graph = folderImports(SRC, ROOT);

  it('name every folder of src/ once', () => {
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    const named = layers.flat().filter((name) => name !== ROOT);
    expect([...named].sort()).toEqual(folders);
    expect(new Set(named).size).toBe(named.length);
  });

  it('are kept: no folder imports one of a higher layer', () => {
    const upward = [...graph].flatMap(([from, arrows]) =>
      [...arrows]
        .filter(([to]) => (rank.get(to) ?? -1) > (rank.get(from) ?? -1))
        .map(([to, why]) => `${from} -> ${to} (${why[0]})`),
    );
    expect(upward).toEqual([]);
  });
});

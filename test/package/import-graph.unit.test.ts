import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';

/**
 * The module graph keeps the data flow one way: no import cycles anywhere in the product, and
 * the server (everything in src/ but the CLI, which wires both sides) never imports the indexer.
 * Static and dynamic imports both count. Configuration enters once: the CLI entry hands the
 * environment in, and nothing else in the server or the indexer reads it.
 */

const root = projectRoot();
const ROOTS = ['src', 'indexer', join('packages', 'platform', 'src')];
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)(['"])(\.{1,2}\/[^'"]+)\1/gm;

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Repository-relative file → the repository-relative files it imports. */
function importGraph(files: readonly string[], read: (file: string) => string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = [...read(file).matchAll(SPECIFIER)].map((m) =>
      relative(root, resolve(dirname(join(root, file)), m[2]!)).replace(/\.js$/, '.ts'),
    );
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Every cycle's members (strongly connected components of more than one file, or a self-import), Tarjan's algorithm. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const files = ROOTS.flatMap((dir) => tsFiles(join(root, dir))).map((f) => relative(root, f));
const graph = importGraph(files, (file) => readFileSync(join(root, file), 'utf8'));

describe('the import graph', () => {
  it('finds cycles, direct and through other files, and nothing in a tree', () => {
    const g = (edges: Record<string, string[]>) => new Map(Object.entries(edges));
    expect(cycles(g({ a: ['b'], b: ['c'], c: [] }))).toEqual([]);
    expect(cycles(g({ a: ['b'], b: ['a'], c: ['a'] }))).toEqual([['a', 'b']]);
    expect(cycles(g({ a: ['b'], b: ['c'], c: ['a'], d: ['d'] }))).toEqual([['a', 'b', 'c'], ['d']]);
  });

  it('reads static, type-only and dynamic imports', () => {
    const text =
      "import { a } from './a.js';\nimport type { B } from '../b.js';\nconst c = await import('./c.js');\nimport './d.js';";
    const edges = importGraph(['src/x/y.ts'], () => text).get('src/x/y.ts');
    expect(edges).toEqual(['src/x/a.ts', 'src/b.ts', 'src/x/c.ts', 'src/x/d.ts']);
  });

  it('has no cycles in the server, the indexer or the platform package', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(cycles(graph)).toEqual([]);
  });

  it('keeps the server apart from the indexer: only the CLI imports both', () => {
    const crossing = [...graph]
      .filter(([file]) => file.startsWith('src/') && !file.startsWith(join('src', 'cli')))
      .flatMap(([file, targets]) => targets.filter((t) => t.startsWith('indexer/')).map((t) => `${file} → ${t}`));
    expect(crossing).toEqual([]);
  });

  it('reads the environment in the entry points only (the CLI and the image entrypoint): every other module is handed its settings', () => {
    const ENV_READ = /\bprocess\.env\b|\bprocess\[['"]env['"]\]/;
    const readers = files.filter(
      (file) => !file.startsWith(join('packages', '')) && ENV_READ.test(readFileSync(join(root, file), 'utf8')),
    );
    expect(readers).toEqual([join('src', 'cli', 'container-entry.ts'), join('src', 'cli.ts')]);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';

/**
 * The module graph keeps the data flow one way: no import cycles anywhere in the product or the
 * benchmark, no two folders importing each other (arrows between folders point one way), and the
 * server (everything in src/ but the CLI, which wires both sides) never imports the indexer.
 * Static and dynamic imports both count. Configuration enters once: the CLI entry hands the
 * environment in, and nothing else in the server or the indexer reads it.
 */

const root = projectRoot();
const ROOTS = ['src', 'indexer', join('packages', 'platform', 'src'), 'bench'];
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

/**
 * The folder a file belongs to, for the one-way rule: a subfolder of src/, indexer/ or bench/
 * (`src/mcp`, `indexer/load`), or the file itself when it sits loose at the top of one of them
 * (`src/errors.ts`, `indexer/build.ts`: files, not folders; the cycle check covers them). A loose file
 * goes with the folder of its name: `src/cli.ts` is the entry of `src/cli/`.
 */
function folderOf(file: string): string {
  const parts = file.split(sep);
  if (parts[0] === 'packages') return parts.slice(0, 2).join('/');
  return parts.length > 2 ? parts.slice(0, 2).join('/') : parts.join('/').replace(/\.ts$/, '');
}

/** Pairs of groups that import each other, each with one import either way to show where. */
function mutualPairs(graph: ReadonlyMap<string, readonly string[]>, groupOf: (file: string) => string): string[] {
  const example = new Map<string, string>();
  for (const [file, targets] of graph)
    for (const target of targets) {
      if (!graph.has(target) || groupOf(file) === groupOf(target)) continue;
      const key = `${groupOf(file)} → ${groupOf(target)}`;
      if (!example.has(key)) example.set(key, `${file} → ${target}`);
    }
  return [...example.keys()]
    .filter((key) => {
      const [from, to] = key.split(' → ');
      return from! < to! && example.has(`${to} → ${from}`);
    })
    .map((key) => {
      const [from, to] = key.split(' → ');
      return `${from} ↔ ${to} (${example.get(key)}; ${example.get(`${to} → ${from}`)})`;
    });
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

  it('has no cycles in the server, the indexer, the platform package or the benchmark', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect([...graph.keys()].some((file) => file.startsWith(`bench${sep}`))).toBe(true);
    expect(cycles(graph)).toEqual([]);
  });

  it('finds folders that import each other, and names an import either way', () => {
    const g = new Map(
      Object.entries({
        'src/a/x.ts': ['src/b/y.ts'],
        'src/b/y.ts': ['src/c/z.ts', 'src/errors.ts'],
        'src/c/z.ts': ['src/a/w.ts'],
        'src/a/w.ts': [],
        'src/errors.ts': [],
      }),
    );
    expect(mutualPairs(g, folderOf)).toEqual([]);
    g.set('src/c/z.ts', ['src/a/w.ts', 'src/b/y.ts']);
    expect(mutualPairs(g, folderOf)).toEqual(['src/b ↔ src/c (src/b/y.ts → src/c/z.ts; src/c/z.ts → src/b/y.ts)']);
    expect(folderOf(join('indexer', 'chunk', 'dialects', 'clean.ts'))).toBe('indexer/chunk');
    expect(folderOf(join('src', 'cli.ts'))).toBe(folderOf(join('src', 'cli', 'program.ts')));
  });

  it('points every arrow between folders one way: src/ subfolders, indexer/ and bench/ stages', () => {
    expect(mutualPairs(graph, folderOf)).toEqual([]);
  });

  it('stacks the folders in one order: no loop through three or more of them either', () => {
    const folders = new Map<string, string[]>();
    for (const [file, targets] of graph) {
      const from = folderOf(file);
      const to = targets.filter((t) => graph.has(t)).map(folderOf);
      folders.set(from, [...new Set([...(folders.get(from) ?? []), ...to.filter((f) => f !== from)])]);
    }
    expect(cycles(folders)).toEqual([]);
  });

  it('points every arrow between the top-level folders one way (the CLI, which wires the indexer, aside)', () => {
    const notCli = new Map([...graph].filter(([file]) => !file.startsWith(join('src', 'cli'))));
    expect(mutualPairs(notCli, (file) => file.split(sep)[0]!)).toEqual([]);
  });

  it('lets tests reach into the benchmark only through its shared helpers (bench/lib/, the query sets), but for tests of the benchmark itself', () => {
    const tests = tsFiles(join(root, 'test'))
      .map((file) => relative(root, file))
      .filter((file) => !file.startsWith(join('test', 'bench', '')));
    const shared = [join('bench', 'lib', ''), join('bench', 'queries')];
    const reaching = [...importGraph(tests, (file) => readFileSync(join(root, file), 'utf8'))].flatMap(
      ([file, targets]) =>
        targets
          .filter((t) => t.startsWith(join('bench', '')) && !shared.some((s) => t.startsWith(s)))
          .map((t) => `${file} → ${t}`),
    );
    expect(tests.length).toBeGreaterThan(100);
    expect(reaching).toEqual([]);
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
      (file) =>
        (file.startsWith(`src${sep}`) || file.startsWith(`indexer${sep}`)) &&
        ENV_READ.test(readFileSync(join(root, file), 'utf8')),
    );
    expect(readers).toEqual([join('src', 'cli', 'container-entry.ts'), join('src', 'cli.ts')]);
  });
});

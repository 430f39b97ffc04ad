import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';

/**
 * Every repository path named in a Markdown page (README.md, docs/, the READMEs of folders) or in
 * a code comment exists, and every file name a comment gives (`guards.ts`) is a file somewhere in
 * the repository: after a file moves, the pages and comments that send a reader to it move too.
 */

const root = projectRoot();
const SKIP = new Set(['node_modules', '.git', 'dist', '.cache', 'coverage']);
const CODE_ROOTS = ['src', 'indexer', 'bench', 'test', 'scripts', 'packages'];

/**
 * Names that are not this repository's files: paths inside a corpus or site the text describes
 * (an mdBook's src/SUMMARY.md, a Sphinx build's docs/_build/html), and placeholders.
 */
const NOT_OURS = new Set([
  'src/SUMMARY.md',
  'src/ch04-01-what-is-ownership.md',
  'docs/file.yaml',
  'docs/_build/html',
  'x.ts',
]);

function walk(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (SKIP.has(entry.name)) return [];
    return entry.isDirectory() ? walk(path) : [path];
  });
}

const all = ['.', ...CODE_ROOTS, 'docs'].flatMap((dir) =>
  dir === '.' ? readdirSync(root).filter((f) => f.endsWith('.md')) : walk(dir),
);
const posixOf = (path: string) => path.split(sep).join('/');
const files = [...new Set(all.map(posixOf))];
const baseNames = new Set(files.map((f) => f.split('/').pop()!));
/** Benchmark results are written by runs (they name the paths of their day), not by hand. */
const read = files.filter((f) => !f.startsWith('bench/results/'));
const pages = read.filter((f) => f.endsWith('.md'));
const sources = read.filter((f) => /\.(ts|mjs|cjs|sh)$/.test(f));

const PATH = /(?<![\w./@-])((?:src|indexer|bench|test|scripts|docs|packages|deploy)\/[\w./*-]*[\w/*])/g;
const FILE_NAME = /(?<![\w./*-])([\w][\w.-]*\.(?:ts|mjs|cjs))\b/g;
const COMMENT = /^\s*(\/\/|\*|\/\*\*|#)/;

/** A repository path exists: as written, as the .ts a .js import names, or, with a `*`, as some file it matches. */
function exists(path: string): boolean {
  if (NOT_OURS.has(path)) return true;
  if (path.includes('*')) {
    const pattern = new RegExp(`^${path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}`);
    return files.some((f) => pattern.test(f));
  }
  return existsSync(join(root, path)) || existsSync(join(root, path.replace(/\.js$/, '.ts')));
}

/** `file:line: name` for each path (and, in comments, file name) that names nothing in the repository. */
function deadNames(
  file: string,
  text: string,
  known: { path: (p: string) => boolean; name: (n: string) => boolean },
): string[] {
  const page = file.endsWith('.md');
  return text.split('\n').flatMap((line, i) => {
    if (!page && !COMMENT.test(line)) return [];
    const paths = [...line.matchAll(PATH)].map((m) => m[1]!.replace(/\.+$/, '')).filter((p) => !known.path(p));
    const names = page ? [] : [...line.matchAll(FILE_NAME)].map((m) => m[1]!).filter((n) => !known.name(n));
    return [...paths, ...names].map((name) => `${file}:${i + 1}: ${name}`);
  });
}

const known = {
  path: exists,
  name: (name: string) => NOT_OURS.has(name) || baseNames.has(name) || baseNames.has(name.replace(/\.js$/, '.ts')),
};

describe('paths named in pages and comments', () => {
  it('finds a moved file, a renamed one and a dead folder, and passes what exists', () => {
    const text = [
      '// the writer (indexer/write-index.ts) and the reader (src/index/read-index.ts)',
      '// guards.ts turns it into a status; oauth-settings.ts is gone; see test/mcp/conformance-*.yml',
      'const code = "indexer/not-a-comment.ts";',
    ].join('\n');
    expect(deadNames('src/x.ts', text, known)).toEqual([
      'src/x.ts:1: indexer/write-index.ts',
      'src/x.ts:2: oauth-settings.ts',
    ]);
    expect(
      deadNames('docs/x.md', 'See `bench/nowhere/` and [the style](STYLE.md), `src/serve/app.ts`.', known),
    ).toEqual(['docs/x.md:1: bench/nowhere/']);
  });

  it('in README.md, docs/*.md, the folders’ READMEs and every code comment, all exist', () => {
    expect(pages).toContain('README.md');
    expect(pages.some((p) => p.startsWith('docs/'))).toBe(true);
    const dead = [...pages, ...sources].flatMap((file) =>
      deadNames(file, readFileSync(join(root, file), 'utf8'), known),
    );
    expect(dead).toEqual([]);
  });
});

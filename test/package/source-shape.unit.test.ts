import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';

/**
 * The source (the server, the indexer, the benchmarks, the platform package) stays in pieces a
 * reader can hold: no file over 300 lines and no function over 60
 * (STYLE.md). A function is measured by the TypeScript syntax tree, from the line it starts on
 * (after its doc comment) to the line it ends on, inclusive; every function-like node with a body
 * counts, arrow functions and methods included.
 */

const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 60;
const ROOTS = ['src', 'indexer', 'bench', join('packages', 'platform', 'src')];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Lines as `wc -l` counts them: a final newline ends the last line rather than starting another. */
function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** What a reader would search for: the function's own name, else the name it is assigned to. */
function functionName(node: ts.SignatureDeclaration, source: ts.SourceFile): string {
  if (node.name !== undefined) return node.name.getText(source);
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name !== undefined)
    return parent.name.getText(source);
  return ts.isConstructorDeclaration(node) ? 'constructor' : '<anonymous>';
}

/** Every way `text` (the file `name`) breaks the limits, as `file:line name (n lines)`. */
function shapeViolations(name: string, text: string): string[] {
  const found: string[] = [];
  const lines = lineCount(text);
  if (lines > MAX_FILE_LINES) found.push(`${name}: ${lines} lines (at most ${MAX_FILE_LINES})`);
  const source = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line + 1;
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const start = lineOf(node.getStart(source));
      const span = lineOf(node.getEnd()) - start + 1;
      if (span > MAX_FUNCTION_LINES)
        found.push(`${name}:${start} ${functionName(node, source)} (${span} lines; at most ${MAX_FUNCTION_LINES})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A function of `bodyLines` statements, so it spans bodyLines + 2 lines with its braces. */
const fn = (head: string, bodyLines: number, tail = '}') =>
  [head, ...Array.from({ length: bodyLines }, (_, i) => `  step(${i});`), tail].join('\n');

describe('source shape', () => {
  it('measures files and every kind of function, naming what is too long', () => {
    expect(shapeViolations('ok.ts', fn('function fits() {', 58))).toEqual([]);
    expect(shapeViolations('long.ts', fn('function tooLong() {', 59))).toEqual([
      'long.ts:1 tooLong (61 lines; at most 60)',
    ]);
    const arrow = `const x = 1;\n${fn('export const handler = async () => {', 59, '};')}`;
    expect(shapeViolations('arrow.ts', arrow)).toEqual(['arrow.ts:2 handler (61 lines; at most 60)']);
    const method = fn('class A {\n  run() {', 59, '  }\n}');
    expect(shapeViolations('method.ts', method)).toEqual(['method.ts:2 run (61 lines; at most 60)']);
    const callback = fn('program.action(async (flags) => {', 59, '});');
    expect(shapeViolations('cb.ts', callback)).toEqual(['cb.ts:1 <anonymous> (61 lines; at most 60)']);
    // A doc comment above a function is not part of its length.
    expect(shapeViolations('doc.ts', `/**\n * Why.\n */\n${fn('function fits() {', 58)}`)).toEqual([]);
    expect(shapeViolations('big.ts', 'const a = 1;\n'.repeat(300))).toEqual([]);
    expect(shapeViolations('big.ts', 'const a = 1;\n'.repeat(301))).toEqual(['big.ts: 301 lines (at most 300)']);
  });

  it('holds for every source file of the server and the platform package', () => {
    const root = projectRoot();
    const files = ROOTS.flatMap((dir) => sourceFiles(join(root, dir)));
    expect(files.length).toBeGreaterThan(50);
    const violations = files.flatMap((file) => shapeViolations(relative(root, file), readFileSync(file, 'utf8')));
    expect(violations).toEqual([]);
  });
});

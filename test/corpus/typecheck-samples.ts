import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import ts from 'typescript';
import { parsePage } from './markdown-checks.js';

/**
 * Type-checks the ```ts samples of a corpus against the platform package: each block becomes a
 * module in a temporary folder, the package's import names map to its source barrel, and every
 * error is reported at the page and line where a reader sees it.
 */

export interface CodeSample {
  /** Page path within the corpus. */
  page: string;
  /** Line of the first code line in the page (the line after the opening fence). */
  line: number;
  code: string;
}

const TS_LANGS = new Set(['ts', 'typescript']);

export function extractTsSamples(pages: ReadonlyMap<string, string>): CodeSample[] {
  const samples: CodeSample[] = [];
  for (const [page, source] of pages) {
    for (const block of parsePage(source).code) {
      if (block.lang !== undefined && TS_LANGS.has(block.lang))
        samples.push({ page, line: block.line + 1, code: block.value });
    }
  }
  return samples;
}

export interface TypecheckOptions {
  /** The repository root: where `node_modules` and `packages/platform` are. */
  repoRoot: string;
}

/** The platform package's name, as the samples import it. */
export const PLATFORM_PACKAGE = '@svc-docs/platform';

/** Problems as `page:line: TSxxxx message`; empty when every sample compiles. */
export function typecheckSamples(samples: CodeSample[], options: TypecheckOptions): string[] {
  if (samples.length === 0) return [];
  const dir = mkdtempSync(join(tmpdir(), 'svc-docs-samples-'));
  try {
    // ESM like the package, and the package's dependencies resolvable from the samples.
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    symlinkSync(join(options.repoRoot, 'node_modules'), join(dir, 'node_modules'), 'junction');
    const files = new Map<string, CodeSample>();
    samples.forEach((sample, i) => {
      const name = join(
        dir,
        `${String(i).padStart(3, '0')}-${sample.page.replace(/[^a-z0-9]+/gi, '_')}-L${sample.line}.ts`,
      );
      // A block without imports would be a script; `export {}` keeps every block a module.
      writeFileSync(name, `${sample.code}\nexport {};\n`);
      files.set(name.split(sep).join('/'), sample);
    });
    const compilerOptions: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2023.d.ts'],
      types: ['node'],
      typeRoots: [join(options.repoRoot, 'node_modules', '@types')],
      strict: true,
      noUncheckedIndexedAccess: true,
      esModuleInterop: true,
      skipLibCheck: true,
      noEmit: true,
      paths: { [PLATFORM_PACKAGE]: [join(options.repoRoot, 'packages', 'platform', 'src', 'index.ts')] },
    };
    const program = ts.createProgram([...files.keys()], compilerOptions);
    const problems: string[] = [];
    for (const d of ts.getPreEmitDiagnostics(program)) {
      const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
      if (d.file === undefined) {
        problems.push(`compiler: TS${d.code} ${message}`);
        continue;
      }
      const sample = files.get(d.file.fileName);
      // Errors inside the package itself belong to its own type-check (tsc -p), not to the docs.
      if (sample === undefined) continue;
      const { line } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
      problems.push(`${sample.page}:${sample.line + line}: TS${d.code} ${message}`);
    }
    return problems;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

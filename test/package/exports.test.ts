import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.js';

/** What the package exports exists, and the platform module stands alone. */

const root = projectRoot();
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, string>; bin: Record<string, string> };

/** `./dist/src/x.js` → `src/x.ts`: what tsc compiles into that file. */
const sourceOf = (target: string) => target.replace(/^(\.\/)?dist\//, '').replace(/\.js$/, '.ts');

describe('package exports', () => {
  it.each(Object.entries(pkg.exports))('%s is compiled from a source module that exports the documented API', async (name, target) => {
    const mod = (await import(join(root, sourceOf(target)))) as Record<string, unknown>;
    const expected = name === '.' ? ['openEngine', 'serve', 'startHttpServer', 'createDocsServer'] : ['buildInstallUrl', 'TokenManager', 'verifyWebhook', 'createWebhookHandler', 'reportTriggerEvent'];
    for (const fn of expected) expect(typeof mod[fn], `${name} exports ${fn}`).toBe('function');
  });

  it('the bin is compiled from the CLI', () => {
    expect(sourceOf(pkg.bin['svc-docs']!)).toBe('src/cli.ts');
  });
});

describe('the platform module', () => {
  it('imports nothing from search, indexing, embedding or MCP: only its own files and libraries', () => {
    const dir = join(root, 'src', 'platform');
    const outside: string[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(join(dir, file), 'utf8');
      for (const [, spec] of text.matchAll(/\bfrom\s+'([^']+)'|\bimport\(\s*'([^']+)'/g)) {
        if (spec !== undefined && spec.startsWith('.') && !spec.startsWith('./')) outside.push(`${file}: ${spec}`);
      }
    }
    expect(outside).toEqual([]);
  });
});

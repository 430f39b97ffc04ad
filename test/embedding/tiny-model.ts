import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import {
  BUILDER_VERSION,
  DEFAULT_SETTINGS,
  type StaticModelSettings,
  type StaticModelSource,
} from '../../src/embedding/static-model-settings.js';
import { buildStaticModel } from '../../src/embedding/static-model-builder.js';

/** A synthetic vocabulary small enough to build a real static model in milliseconds. */
export const TINY_WORDS = [
  'the',
  'of',
  'to',
  'and',
  'a',
  'in',
  'is',
  'for',
  'on',
  'by',
  'card',
  'gift',
  'money',
  'refund',
  'return',
  'balance',
  'customer',
  'token',
  'access',
  'valid',
  'event',
  'entity',
  'sequence',
  'instance',
  'id',
  'user',
  'get',
  'webhook',
  'signature',
  'verify',
  'pod',
  'scheduling',
  'cluster',
  'node',
  'café',
  'e-mail',
  'u.s.',
  ',',
  '.',
  'events',
];

export const TINY_DIMENSIONS = 8;

export const TINY_SETTINGS: StaticModelSettings = {
  maxWords: 1000,
  sifA: 1e-3,
  splitPenalty: 5,
  maxRunLength: 40,
  removeCommonComponent: true,
  maxTokens: 64,
};

/** Deterministic pseudo-random vectors (a linear congruential generator), with extra trailing values like wink's. */
export function tinySource(): StaticModelSource {
  let state = 12345;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31 - 0.5;
  };
  const vectors = TINY_WORDS.map((_, i) => [...Array.from({ length: TINY_DIMENSIONS }, next), 3.14, i]);
  return {
    name: 'tiny-synthetic',
    version: '0.0.0',
    license: 'CC0-1.0',
    words: TINY_WORDS,
    vectors,
    dimensions: TINY_DIMENSIONS,
  };
}

const scratchDirs: string[] = [];
// Registered as the test file imports this module: an afterAll called from inside a test (where
// most scratch folders are made) is never run, and those folders were left in the temp dir.
afterAll(() => {
  for (const dir of scratchDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary folder, removed after the test file. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `svc-embedding-${prefix}-`));
  scratchDirs.push(dir);
  return dir;
}

export function buildTinyModel(dir: string, settings: StaticModelSettings = TINY_SETTINGS): string {
  buildStaticModel(tinySource(), dir, settings);
  return dir;
}

/**
 * A tiny default-model folder at `dir` whose tokenizer.json is not JSON, with provenance.json
 * re-signed to match: it passes the checksum check and fails only when Transformers.js loads it.
 */
export function buildModelWithBrokenTokenizer(dir: string): void {
  mkdirSync(dir, { recursive: true });
  buildTinyModel(dir);
  writeFileSync(join(dir, 'tokenizer.json'), 'not json');
  const provenance = JSON.parse(readFileSync(join(dir, 'provenance.json'), 'utf8')) as {
    files: Record<string, string>;
  };
  const files = Object.fromEntries(
    Object.keys(provenance.files).map((path) => [
      path,
      createHash('sha256')
        .update(readFileSync(join(dir, path)))
        .digest('hex'),
    ]),
  );
  writeFileSync(
    join(dir, 'provenance.json'),
    JSON.stringify({ ...provenance, builderVersion: BUILDER_VERSION, settings: DEFAULT_SETTINGS, files }),
  );
}

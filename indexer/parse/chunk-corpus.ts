import type { StoredDocument, StoredSection } from '../../src/index/format.js';
import type { Manifest } from '../../src/index/manifest.js';
import {
  BoundedChunker,
  keptChunker,
  PARSE_HEAP_MB,
  returnChunker,
  type Chunker,
  type ChunkOutcome,
} from './bounded-chunk.js';
import { ChunkerPool, defaultParseWorkers } from './chunker-pool.js';
import { CHUNKER_VERSION, type ChunkOptions } from '../chunk/chunk.js';
import { asPlainText, type Chunked, fromOutcome, type Remembered } from './failed-parse.js';
import { InlineChunker } from './inline-chunk.js';
import { SETTINGS } from '../../src/settings/catalogue.js';
import { DEFAULT_MAX_FILE_BYTES, type CorpusDocument } from '../load/load-corpus.js';
import type { ParseFailures } from './parse-failures.js';
import type { SkipLog } from '../load/skipped-files.js';

/**
 * The corpus as documents and sections: each file parsed and chunked within a time limit, or
 * its sections taken from the previous build when neither it nor the chunking changed. A
 * Markdown file that cannot be parsed (in time, within the parser's stack or heap) is indexed as
 * plain text, one of another format is left out, each with one line naming it (failed-parse.ts);
 * one whose parse ran over the time limit is remembered, so that later builds do the same
 * without parsing it (parse-failures.ts).
 */

export interface FileLimits {
  /** Files larger than this are not read. */
  maxFileBytes: number;
  /** A file whose parse takes more CPU time than this is left out (parsing is stopped, not waited for). */
  parseTimeoutMs: number;
  /** The parser's heap in MB (the parse workers share it, chunker-pool.ts): a file whose parse needs more is left out. */
  parseHeapMb: number;
}

/**
 * Ordinary Markdown parses at 0.6-1.8 MB per CPU-second (the Argo CD docs, 3.0 MB, in 1.5-1.7 s;
 * Material for MkDocs' 105 KB changelog in 0.14-0.18 s), so a file at the size limit takes a few
 * seconds of CPU: well inside the limit, which counts CPU time and so holds on a busy machine.
 */
export const DEFAULT_FILE_LIMITS: FileLimits = {
  maxFileBytes: DEFAULT_MAX_FILE_BYTES,
  parseTimeoutMs: SETTINGS.parseTimeoutSeconds.default * 1000,
  parseHeapMb: PARSE_HEAP_MB,
};

export interface PreviousBuild {
  manifest: Manifest;
  documents: StoredDocument[];
  sections: StoredSection[];
}

export interface ChunkedCorpus {
  documents: StoredDocument[];
  sections: StoredSection[];
  /** Files parsed and chunked in this build; the others kept their sections from the previous build. */
  documentsParsed: number;
  /** Files read but left out (a format other than Markdown or text whose parse failed or ran over the time limit), as `kb/path`. */
  skipped: string[];
  /** Markdown (or text) files whose parse failed (or was not tried, `remembered`), indexed as plain text (failed-parse.ts). */
  plainText: string[];
  /** Files not parsed, as an earlier build's parse of the same content ran over the limit: left out or plain text. */
  remembered: string[];
}

export interface ParseLimit {
  /** CPU time a file's parse may take, in ms. */
  timeoutMs: number;
  /** Contents whose parse ran over the limit: this build's are added. */
  failures?: ParseFailures;
  /** Documents an earlier parse of whose content ran over the limit (rememberedFailures), and what this build does with them. */
  remembered?: ReadonlyMap<CorpusDocument, Remembered>;
  /** Parse workers a large change set is parsed on (default: one per core, chunker-pool.ts). */
  workers?: number;
  /** The parser's heap, MB (default PARSE_HEAP_MB). */
  heapMb?: number;
}

/**
 * Told each document as it is added, in corpus order, with its sections and its place in the
 * corpus (`at` of `corpus.length`), while later documents are still being parsed; awaited.
 */
export type OnDocument = (
  doc: StoredDocument,
  sections: readonly StoredSection[],
  at: number,
  of: number,
) => void | Promise<void>;

export async function chunkCorpus(
  corpus: CorpusDocument[],
  previous: PreviousBuild | undefined,
  options: ChunkOptions,
  limit: ParseLimit,
  skips: SkipLog,
  onDocument?: OnDocument,
): Promise<ChunkedCorpus> {
  const reusable = reusableSections(previous, options);
  const key = (doc: CorpusDocument) => `${doc.kb}/${doc.path}\0${doc.hash}`;
  const remembered = limit.remembered ?? new Map<CorpusDocument, Remembered>();
  const parses = (known: Remembered | undefined, doc: CorpusDocument) =>
    known === 'parse-again' || (known === undefined && !reusable.has(key(doc)));
  const toParse = corpus.filter((doc) => parses(remembered.get(doc), doc));
  const { chunker, release } = chunkerFor(
    toParse,
    limit.timeoutMs,
    limit.workers ?? defaultParseWorkers(),
    limit.heapMb,
  );
  const parsing = parseAhead(chunker, toParse, options);
  const out: ChunkedCorpus = {
    documents: [],
    sections: [],
    documentsParsed: 0,
    skipped: [],
    plainText: [],
    remembered: [],
  };
  const chunksOf = (doc: CorpusDocument) =>
    sectionsOf(doc, { known: remembered.get(doc), reused: reusable.get(key(doc)), parsing, chunker }, out, {
      options,
      limit,
      skips,
    });
  try {
    for (const [at, doc] of corpus.entries()) {
      const chunked = await chunksOf(doc);
      if (chunked === undefined) {
        out.skipped.push(`${doc.kb}/${doc.path}`);
        continue;
      }
      const d = out.documents.length;
      const stored = storedDocument(doc, chunked, out.sections.length);
      out.documents.push(stored);
      for (const s of chunked.sections) out.sections.push({ doc: d, headings: s.headings, text: s.text, role: s.role });
      await onDocument?.(stored, out.sections.slice(stored.firstSection), at, corpus.length);
    }
  } finally {
    release();
  }
  return out;
}

/** A document's sections: reused, parsed, or plain text; undefined when it is left out. Counted in `out`. */
async function sectionsOf(
  doc: CorpusDocument,
  given: {
    known: Remembered | undefined;
    reused: Chunked | undefined;
    parsing: Map<CorpusDocument, Promise<ChunkOutcome>>;
    chunker: Chunker;
  },
  out: ChunkedCorpus,
  { options, limit, skips }: { options: ChunkOptions; limit: ParseLimit; skips: SkipLog },
): Promise<Chunked | undefined> {
  const name = `${doc.kb}/${doc.path}`;
  // Before its sections are reused: a build from nothing would not parse it either.
  if (given.known === 'left-out') {
    out.remembered.push(name);
    return undefined;
  }
  if (given.known === 'plain') {
    out.remembered.push(name);
    out.plainText.push(name);
    return asPlainText(doc, options);
  }
  // Sections a build at a lower limit gave it are its plain text: parsed again under this one.
  if (given.known !== 'parse-again' && given.reused) return given.reused;
  const outcome = await (given.parsing.get(doc) ??
    given.chunker.chunk({ path: doc.path, source: doc.source }, options));
  if (!outcome.ok && outcome.reason === 'timeout') limit.failures?.record(doc.hash, limit.timeoutMs);
  // Else remembered, it would be parsed again in every build at this limit, and no build would be up to date.
  else if (given.known === 'parse-again') limit.failures?.forget(doc.hash);
  const chunked = fromOutcome(outcome, given.chunker.timeoutMs, doc, options, skips);
  if (chunked === undefined) return undefined;
  if (!outcome.ok) out.plainText.push(name);
  out.documentsParsed++;
  return chunked;
}

function storedDocument(doc: CorpusDocument, chunked: Chunked, firstSection: number): StoredDocument {
  return {
    kb: doc.kb,
    path: doc.path,
    title: chunked.title,
    hash: doc.hash,
    firstSection,
    sectionCount: chunked.sections.length,
    ...(doc.url !== undefined && { url: doc.url }),
  };
}

/**
 * Change sets up to this size are parsed on the calling thread (inline-chunk.ts): a one-file
 * edit of the largest page of the Argo CD docs (70 KB) parses in 0.15-0.3 s, less than starting
 * the worker, and a change set this size parses in about a second.
 */
export const INLINE_PARSE_LIMITS = { documents: 32, chars: 256 * 1024 };

export function parsesInline(toParse: readonly { source: string }[]): boolean {
  if (toParse.length > INLINE_PARSE_LIMITS.documents) return false;
  return toParse.reduce((chars, doc) => chars + doc.source.length, 0) <= INLINE_PARSE_LIMITS.chars;
}

/**
 * On a pool, every document is sent at once (each waits for a free worker); the outcomes are
 * taken in corpus order, so the order parses finish in never reaches the index. Elsewhere each
 * document is parsed when its turn comes.
 */
function parseAhead(
  chunker: Chunker,
  toParse: CorpusDocument[],
  options: ChunkOptions,
): Map<CorpusDocument, Promise<ChunkOutcome>> {
  const parsing = new Map<CorpusDocument, Promise<ChunkOutcome>>();
  if (!(chunker instanceof ChunkerPool)) return parsing;
  for (const doc of toParse) {
    const outcome = chunker.chunk({ path: doc.path, source: doc.source }, options);
    // Awaited in turn below; marked handled now so that a failure met before its turn is not fatal.
    outcome.catch(() => {});
    parsing.set(doc, outcome);
  }
  return parsing;
}

/**
 * The calling thread for a small change set (or the worker a build before this one kept, already
 * warmed up); else a pool of `workers` workers, the kept one among them, of which one is kept for
 * the next build and the others ended.
 */
function chunkerFor(
  toParse: CorpusDocument[],
  parseTimeoutMs: number,
  workers: number,
  heapMb = PARSE_HEAP_MB,
): { chunker: Chunker; release: () => void } {
  const kept = keptOfHeap(keptChunker(parseTimeoutMs), heapMb);
  if (!parsesInline(toParse) && (workers > 1 || !kept)) {
    const pool = new ChunkerPool(parseTimeoutMs, workers, kept, heapMb, heapMb);
    pool.warm();
    return { chunker: pool, release: () => returnChunker(pool.release()) };
  }
  if (kept) return { chunker: kept, release: () => returnChunker(kept) };
  // Started only to parse again what the watchdog stopped on a busy machine.
  let worker: BoundedChunker | undefined;
  const inline = new InlineChunker(parseTimeoutMs, () => (worker ??= new BoundedChunker(parseTimeoutMs, heapMb)));
  return {
    chunker: inline,
    release: () => {
      if (worker) returnChunker(worker);
    },
  };
}

/** The kept worker, if its heap is `heapMb`; one of another (a test's smaller heap) is ended. */
function keptOfHeap(kept: BoundedChunker | undefined, heapMb: number): BoundedChunker | undefined {
  if (kept === undefined || kept.heapMb === heapMb) return kept;
  void kept.close();
  return undefined;
}

/** Parsing is most of a reindex's work: files unchanged since a build chunked the same way keep their sections. */
function reusableSections(previous: PreviousBuild | undefined, options: ChunkOptions): Map<string, Chunked> {
  const reusable = new Map<string, Chunked>();
  if (
    !previous ||
    previous.manifest.chunking.maxSectionChars !== options.maxSectionChars ||
    previous.manifest.chunking.version !== CHUNKER_VERSION
  )
    return reusable;
  for (const d of previous.documents) {
    reusable.set(`${d.kb}/${d.path}\0${d.hash}`, {
      title: d.title,
      sections: previous.sections.slice(d.firstSection, d.firstSection + d.sectionCount),
    });
  }
  return reusable;
}

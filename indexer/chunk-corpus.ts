import { basename } from 'node:path';
import type { StoredDocument, StoredSection } from '../src/index/format.js';
import type { Manifest } from '../src/index/manifest.js';
import type { BoundedChunker } from './bounded-chunk.js';
import { CHUNKER_VERSION, plainSections, type ChunkedSection, type ChunkOptions } from './chunk.js';
import { DEFAULT_MAX_FILE_BYTES, type CorpusDocument } from './load-corpus.js';

/**
 * The corpus as documents and sections: each file parsed and chunked within a time limit, or
 * its sections taken from the previous build when neither it nor the chunking changed. A file
 * that cannot be parsed in time is left out with one warning line; the rest is indexed.
 */

export interface FileLimits {
  /** Files larger than this are not read. */
  maxFileBytes: number;
  /** A file whose parse takes longer is left out (parsing is stopped, not waited for). */
  parseTimeoutMs: number;
}

/** Ordinary Markdown parses at 120–250 KB/s on a busy 2-core machine, so a file at the size limit takes under 9 s: well inside the time limit. */
export const DEFAULT_FILE_LIMITS: FileLimits = { maxFileBytes: DEFAULT_MAX_FILE_BYTES, parseTimeoutMs: 20_000 };

export interface PreviousBuild {
  manifest: Manifest;
  documents: StoredDocument[];
  sections: StoredSection[];
}

export interface ChunkedCorpus {
  documents: StoredDocument[];
  sections: StoredSection[];
  /** Files parsed and chunked in this build. */
  documentsParsed: number;
  /** Files left out, as `kb/path`. */
  skipped: string[];
}

type Chunked = { title: string; sections: ChunkedSection[] };

export async function chunkCorpus(
  corpus: CorpusDocument[],
  previous: PreviousBuild | undefined,
  options: ChunkOptions,
  /** Parses with the caller's time limit; the caller owns it (chunkers outlive builds: bounded-chunk.ts). */
  chunker: BoundedChunker,
  log: (line: string) => void,
): Promise<ChunkedCorpus> {
  const reusable = reusableSections(previous, options);
  const out: ChunkedCorpus = { documents: [], sections: [], documentsParsed: 0, skipped: [] };
  for (const doc of corpus) {
    let chunked = reusable.get(`${doc.kb}/${doc.path}\0${doc.hash}`);
    if (!chunked) {
      chunked = await chunkDocument(chunker, doc, options, log);
      if (!chunked) {
        out.skipped.push(`${doc.kb}/${doc.path}`);
        continue;
      }
      out.documentsParsed++;
    }
    const d = out.documents.length;
    out.documents.push({
      kb: doc.kb,
      path: doc.path,
      title: chunked.title,
      hash: doc.hash,
      firstSection: out.sections.length,
      sectionCount: chunked.sections.length,
    });
    for (const s of chunked.sections) out.sections.push({ doc: d, headings: s.headings, text: s.text });
  }
  return out;
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

async function chunkDocument(
  chunker: BoundedChunker,
  doc: CorpusDocument,
  options: ChunkOptions,
  log: (line: string) => void,
): Promise<Chunked | undefined> {
  const parseTimeoutMs = chunker.timeoutMs;
  const name = `${doc.kb}/${doc.path}`;
  const fallbackTitle = basename(doc.path).replace(/\.(md|markdown|mdx)$/i, '');
  const outcome = await chunker.chunk(doc.source, options);
  if (outcome.ok) return { title: outcome.doc.title ?? fallbackTitle, sections: outcome.doc.sections };
  if (outcome.reason === 'timeout') {
    log(
      `skipped ${name}: parsing it took over ${parseTimeoutMs / 1000} s (SVC_DOCS_PARSE_TIMEOUT_SECONDS); the rest of the corpus is indexed`,
    );
    return undefined;
  }
  // A file the parser cannot handle (deep nesting overflows its stack) is still searchable as plain text.
  log(`warning: ${name} could not be parsed as Markdown (${outcome.error ?? 'error'}); indexed as plain text`);
  return { title: fallbackTitle, sections: plainSections(doc.source, options) };
}

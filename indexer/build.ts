import { createHash } from 'node:crypto';
import { basename, join } from 'node:path';
import { DEFAULT_MODEL_ID } from '../src/embedding/default-model.js';
import { loadEmbedder } from '../src/embedding/embedder.js';
import type { Embedder } from '../src/embedding/types.js';
import { buildLexicalData, DEFAULT_LEXICAL_PARAMS, type FieldTokens, type LexicalParams } from '../src/index/lexical-index.js';
import { currentBuildDir, readBuildSections, readManifest, writeIndex, type StoredDocument, type StoredSection } from '../src/index/store.js';
import { plainText, STOP_WORDS, tokenize } from '../src/index/tokenize.js';
import { DEFAULT_HNSW_PARAMS, HnswVectorIndex, type HnswParams, type VectorMatrix } from '../src/index/vector-index.js';
import type { FusionSettings } from '../src/index/manifest.js';
import { cacheDir } from '../src/paths.js';
import { defaultFusionSettings } from '../src/search/fuse.js';
import { DEFAULT_RELEVANCE_THRESHOLDS } from '../src/search/relevance.js';
import { CHUNKER_VERSION, chunkMarkdown, DEFAULT_CHUNK_OPTIONS, type ChunkOptions, type ChunkedDocument } from './chunk.js';
import { loadCorpus, type CorpusDocument } from './load-corpus.js';
import { cacheKey, VectorCache } from './vector-cache.js';

/** corpus → load ▸ chunk ▸ embed (through the cache) ▸ lexical + HNSW ▸ index-data, atomically. */

export type BuildPhase = 'embed-sections' | 'embed-vocabulary';
export interface BuildProgress {
  phase: BuildPhase;
  done: number;
  total: number;
}

export interface BuildOptions {
  corpusDirs: string[];
  outDir: string;
  /** Model folder or id; default: the bundled static model. Ignored when `embedder` is given. */
  model?: string;
  embedder?: Embedder;
  allowRemoteModels?: boolean;
  /** Where cached vectors live; default `.cache/vectors`. */
  vectorCacheDir?: string;
  chunk?: ChunkOptions;
  lexical?: LexicalParams;
  hnsw?: HnswParams;
  fusion?: Partial<FusionSettings>;
  batchSize?: number;
  onProgress?: (progress: BuildProgress) => void;
  log?: (line: string) => void;
  /** Test hook: called after each embedded batch, so a test can simulate a crash mid-build. */
  afterBatch?: (embeddedSoFar: number) => void | Promise<void>;
}

export interface BuildSummary {
  buildDir: string;
  documents: number;
  sections: number;
  knowledgeBases: string[];
  /** Section vectors computed in this build, and those taken from the cache. */
  sectionsEmbedded: number;
  sectionsReused: number;
  /** Files parsed and chunked in this build; the others kept their sections from the previous build. */
  documentsParsed: number;
  /** Query-expansion vocabulary words embedded in this build (new words only). */
  vocabularyEmbedded: number;
  changes: { added: string[]; changed: string[]; removed: string[] };
  seconds: number;
}

/** Runs of word characters with identifier punctuation: only plain words among them qualify. */
const VOCABULARY_TOKEN = /[\p{L}\p{N}_]+(?:[.\-/:@][\p{L}\p{N}_]+)*/gu;
/** A plain word: lower case or Capitalised, letters only (not `getRepository`, `v1`, `argocd-cm`). */
const PLAIN_WORD = /^\p{Lu}?\p{Ll}{2,29}$/u;
const MAX_VOCABULARY = 50_000;

export async function buildIndex(options: BuildOptions): Promise<BuildSummary> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const corpus = loadCorpus(options.corpusDirs);
  const chunkOptions = options.chunk ?? DEFAULT_CHUNK_OPTIONS;

  const previous = await previousBuild(options.outDir);
  // Parsing is most of a reindex's work: files unchanged since a build chunked the same way keep
  // their sections, so a one-file edit parses one file.
  const reusable = new Map<string, { title: string; sections: StoredSection[] }>();
  const { maxSectionChars } = chunkOptions;
  if (previous && previous.manifest.chunking.maxSectionChars === maxSectionChars && previous.manifest.chunking.version === CHUNKER_VERSION) {
    for (const d of previous.documents) reusable.set(`${d.kb}/${d.path}\0${d.hash}`, { title: d.title, sections: previous.sections.slice(d.firstSection, d.firstSection + d.sectionCount) });
  }

  const documents: StoredDocument[] = [];
  const sections: StoredSection[] = [];
  let documentsParsed = 0;
  for (const doc of corpus) {
    let chunked = reusable.get(`${doc.kb}/${doc.path}\0${doc.hash}`);
    if (!chunked) {
      const parsed = chunkSafely(doc, chunkOptions, log);
      chunked = { title: parsed.title ?? basename(doc.path).replace(/\.(md|markdown|mdx)$/i, ''), sections: parsed.sections.map((s) => ({ doc: 0, ...s })) };
      documentsParsed++;
    }
    documents.push({ kb: doc.kb, path: doc.path, title: chunked.title, hash: doc.hash, firstSection: sections.length, sectionCount: chunked.sections.length });
    for (const s of chunked.sections) sections.push({ doc: documents.length - 1, headings: s.headings, text: s.text });
  }

  const ownsEmbedder = options.embedder === undefined;
  const embedder = options.embedder ?? (await loadEmbedder({ model: options.model, allowRemote: options.allowRemoteModels ?? false, log }));
  try {
    const cache = await VectorCache.open(options.vectorCacheDir ?? join(cacheDir(), 'vectors'), embedder.checksum, embedder.dimensions, log);
    const batchSize = options.batchSize ?? 64;
    const embedAll = async (texts: string[], phase: BuildPhase): Promise<{ matrix: VectorMatrix; embedded: number }> => {
      const data = new Float32Array(texts.length * embedder.dimensions);
      const keys = texts.map(cacheKey);
      const missing: number[] = [];
      keys.forEach((key, i) => {
        const v = cache.get(key);
        if (v) data.set(v, i * embedder.dimensions);
        else missing.push(i);
      });
      options.onProgress?.({ phase, done: texts.length - missing.length, total: texts.length });
      for (let start = 0; start < missing.length; start += batchSize) {
        const batch = missing.slice(start, start + batchSize);
        const vectors = await embedder.embed(batch.map((i) => texts[i]!));
        batch.forEach((i, j) => {
          data.set(vectors[j]!, i * embedder.dimensions);
          cache.set(keys[i]!, vectors[j]!);
        });
        options.onProgress?.({ phase, done: texts.length - missing.length + start + batch.length, total: texts.length });
        await options.afterBatch?.(start + batch.length);
      }
      return { matrix: { dims: embedder.dimensions, data }, embedded: missing.length };
    };

    const embeddedSections = await embedAll(
      sections.map((s) => embeddingText(documents[s.doc]!.title, s)),
      'embed-sections',
    );
    const sectionVectors = embeddedSections.matrix;
    const vocabulary = corpusVocabulary(sections);
    const embeddedVocabulary = await embedAll(vocabulary, 'embed-vocabulary');
    const vocabularyVectors = embeddedVocabulary.matrix;
    // Saved before the index is written: a crash after this point costs no embedding next time.
    await cache.save();

    const lexicalParams = options.lexical ?? DEFAULT_LEXICAL_PARAMS;
    const lexical = buildLexicalData(sections.map((s) => lexicalFields(documents[s.doc]!.title, s)));
    const hnswParams = options.hnsw ?? DEFAULT_HNSW_PARAMS;
    const hnsw = HnswVectorIndex.build(sectionVectors, hnswParams);
    const knowledgeBases = [...new Set(documents.map((d) => d.kb))];

    const buildDir = await writeIndex(
      options.outDir,
      {
        builtAt: new Date().toISOString(),
        builder: 'svc-docs',
        model: { id: embedder.modelId, dimensions: embedder.dimensions, checksum: embedder.checksum },
        corpus: { checksum: corpusChecksum(corpus), knowledgeBases, documents: documents.length },
        sections: sections.length,
        chunking: { maxSectionChars, version: CHUNKER_VERSION },
        lexical: lexicalParams,
        hnsw: hnswParams,
        fusion: { ...defaultFusionSettings(embedder.modelId === DEFAULT_MODEL_ID), ...options.fusion },
        relevance: DEFAULT_RELEVANCE_THRESHOLDS,
      },
      { documents, sections, vectors: sectionVectors, lexical, expansion: { terms: vocabulary, vectors: vocabularyVectors } },
      hnsw,
    );
    return {
      buildDir,
      documents: documents.length,
      sections: sections.length,
      knowledgeBases,
      sectionsEmbedded: embeddedSections.embedded,
      sectionsReused: sections.length - embeddedSections.embedded,
      vocabularyEmbedded: embeddedVocabulary.embedded,
      documentsParsed,
      changes: diffDocuments(previous?.documents ?? [], documents),
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    if (ownsEmbedder) await embedder.dispose();
  }
}

function chunkSafely(doc: CorpusDocument, options: ChunkOptions, log: (line: string) => void): ChunkedDocument {
  try {
    return chunkMarkdown(doc.source, options);
  } catch (error) {
    // A file the parser cannot handle is still searchable as one plain section.
    log(`warning: ${doc.kb}/${doc.path} could not be parsed as Markdown (${(error as Error).message}); indexed as plain text`);
    return { title: undefined, sections: doc.source.trim() === '' ? [] : [{ headings: [], text: doc.source }] };
  }
}

/** What the model reads for a section: where it sits (title, headings) and what it says. */
export function embeddingText(title: string, section: Pick<StoredSection, 'headings' | 'text'>): string {
  return [title, section.headings.join(' > '), plainText(bodyOf(section.text))].filter((p) => p.trim() !== '').join('\n');
}

/** The section text without its own heading line (headings are a field of their own). */
function bodyOf(text: string): string {
  return text.replace(/^\s*#{1,6}[ \t][^\n]*\n?/, '').replace(/^\s*[^\n]+\n(=+|-+)[ \t]*\n?/, '');
}

export function lexicalFields(title: string, section: Pick<StoredSection, 'headings' | 'text'>): FieldTokens {
  return { title: tokenize(title), headings: tokenize(section.headings.join('\n')), body: tokenize(plainText(bodyOf(section.text))) };
}

/**
 * Words of the corpus that may bridge a query to the docs: plain words seen at least twice, most
 * frequent first. Identifiers are left out: their vectors are averages of word pieces
 * (`getRepository` ≈ `repository`), which would make them look like synonyms of their parts.
 */
function corpusVocabulary(sections: StoredSection[]): string[] {
  const counts = new Map<string, number>();
  for (const s of sections) {
    for (const m of plainText(s.text).matchAll(VOCABULARY_TOKEN)) {
      if (!PLAIN_WORD.test(m[0])) continue;
      const w = m[0].toLowerCase();
      if (!STOP_WORDS.has(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
    }
  }
  return [...counts]
    .filter(([, c]) => c >= 2)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, MAX_VOCABULARY)
    .map(([w]) => w);
}

export type IndexStatus = { state: 'current' } | { state: 'missing' | 'stale'; reason: string };

/**
 * Whether the index in `outDir` was built from this corpus as it is now (and with `model`, when
 * one is named). Damaged data files are not checked here: loading the index reports them.
 */
export async function indexStatus(corpusDirs: string[], outDir: string, model?: string): Promise<IndexStatus> {
  let manifest;
  try {
    const dir = await currentBuildDir(outDir);
    if (dir === undefined) return { state: 'missing', reason: `no index in ${outDir}` };
    manifest = await readManifest(dir);
  } catch (error) {
    // An index this svc-docs cannot read (other format, damaged manifest) is rebuilt from the corpus.
    return { state: 'stale', reason: (error as Error).message.split(': run')[0]! };
  }
  if (model !== undefined && model !== manifest.model.id && !(model === 'default' && manifest.model.id === DEFAULT_MODEL_ID)) {
    return { state: 'stale', reason: `the index was built with ${manifest.model.id}, not ${model}` };
  }
  if (corpusChecksum(loadCorpus(corpusDirs)) !== manifest.corpus.checksum) return { state: 'stale', reason: 'the corpus changed since the index was built' };
  return { state: 'current' };
}

function corpusChecksum(corpus: CorpusDocument[]): string {
  const h = createHash('sha256');
  for (const d of corpus) h.update(`${d.kb}/${d.path}\0${d.hash}\n`);
  return h.digest('hex');
}

async function previousBuild(outDir: string): Promise<Awaited<ReturnType<typeof readBuildSections>> | undefined> {
  try {
    const dir = await currentBuildDir(outDir);
    return dir === undefined ? undefined : await readBuildSections(dir);
  } catch {
    // No usable previous index: everything counts as added, and every file is parsed.
    return undefined;
  }
}

function diffDocuments(before: StoredDocument[], after: StoredDocument[]): BuildSummary['changes'] {
  const key = (d: StoredDocument) => `${d.kb}/${d.path}`;
  const old = new Map(before.map((d) => [key(d), d.hash]));
  const now = new Map(after.map((d) => [key(d), d.hash]));
  return {
    added: [...now.keys()].filter((k) => !old.has(k)),
    changed: [...now].filter(([k, h]) => old.has(k) && old.get(k) !== h).map(([k]) => k),
    removed: [...old.keys()].filter((k) => !now.has(k)),
  };
}

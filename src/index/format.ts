import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ProblemError } from '../errors.js';
import type { LexicalData } from './lexical-data.js';
import { HNSW_LABELS_SUFFIX, type VectorMatrix } from './vector-index.js';

/**
 * An index folder's layout, shared by the indexer (which writes it) and the server (which only reads
 * it). Each build is a complete folder (`build-…`) and the file `CURRENT` names the live one; the
 * manifest (manifest.ts) records every data file's sha256.
 */

const storedDocumentSchema = z.object({
  kb: z.string(),
  path: z.string(),
  title: z.string(),
  hash: z.string(),
  /** Sections of a document are contiguous: firstSection … firstSection + sectionCount - 1. */
  firstSection: z.number().int().nonnegative(),
  sectionCount: z.number().int().nonnegative(),
  /** The published page's public URL, when its knowledge base declares where it is published. */
  url: z.string().optional(),
});
export type StoredDocument = z.infer<typeof storedDocumentSchema>;

/**
 * What a section is for (indexer/chunk/section-role.ts): `content` says something; `navigation` only
 * points elsewhere (see-also lists, tables of contents); `empty` is a heading with nothing under
 * it. Only content sections are answers; the others are context.
 */
export const SECTION_ROLES = ['content', 'navigation', 'empty'] as const;
export type SectionRole = (typeof SECTION_ROLES)[number];

const storedSectionSchema = z.object({
  doc: z.number().int().nonnegative(),
  headings: z.array(z.string()),
  text: z.string(),
  role: z.enum(SECTION_ROLES),
});
export type StoredSection = z.infer<typeof storedSectionSchema>;

/** profile.json: what each knowledge base covers (src/index/corpus-profile.ts), made at build time. */
export const profileFileSchema = z.object({
  profiles: z.array(
    z.object({
      name: z.string(),
      pages: z.number().int().nonnegative(),
      areas: z.array(z.string()),
      topics: z.array(z.string()),
      exampleTerms: z.array(z.string()),
    }),
  ),
});

export interface IndexContent {
  documents: StoredDocument[];
  sections: StoredSection[];
  /** One unit vector per section, in section order. */
  vectors: VectorMatrix;
  lexical: LexicalData;
}

/**
 * The data files of a build folder, besides manifest.json (docs/index-format.md). The two big
 * tables are binary columns (sections-file.ts, postings-file.ts), written and read in pieces: as
 * JSON they outgrew V8's longest string (512 MiB) before 1M sections.
 */
export const INDEX_FILES = {
  sections: 'sections.bin',
  lexical: 'postings.bin',
  vectors: 'vectors.f32',
  hnsw: 'vectors.hnsw',
  /** The graph's slot → section map (vector-index.ts), named after the graph because the graph's loader finds it so. */
  hnswLabels: `vectors.hnsw${HNSW_LABELS_SUFFIX}`,
  /** What each knowledge base covers, for the tool description: made from every section's text at build time. */
  profile: 'profile.json',
} as const;

/**
 * The files a server reads in part, checksummed by piece (pieces.ts): their manifest checksum is
 * the sha256 of `<file>.pieces`, the list of their pieces' sha256.
 */
export const PIECED_FILES: ReadonlySet<string> = new Set([INDEX_FILES.sections, INDEX_FILES.lexical]);
export const MANIFEST_FILE = 'manifest.json';
export const CURRENT_FILE = 'CURRENT';
/** What CURRENT may name: a build folder beside it, never a path elsewhere. */
export const BUILD_NAME = /^build-[\w-]+$/;

export const REBUILD = "run 'svc-docs index' to rebuild it";

/** An index that is missing ('index_missing') or cannot be read or written ('index_unreadable'). */
export class IndexError extends ProblemError<'index_missing' | 'index_unreadable'> {
  override name = 'IndexError';

  constructor(
    problem: string,
    advice: string = REBUILD,
    code: 'index_missing' | 'index_unreadable' = 'index_unreadable',
  ) {
    super(code, problem, advice);
  }
}

export function sha256(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

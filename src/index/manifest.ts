import { z } from 'zod';
import type { LexicalParams } from './lexical-data.js';
import type { HnswParams } from './vector-index.js';

/** index-data's manifest: what was built, from what, with which settings, and each file's checksum. */

/**
 * 2: sections.bin and postings.bin replaced sections.json and lexical.json. 3: the HNSW graph's
 * labels are slots mapped to sections by vectors.hnsw.labels, so a reindex can update the graph.
 * 4: sections carry a role. 5: documents carry their published page's URL. 6: sections.bin and
 * postings.bin are checksummed by 4 KiB piece (`<file>.pieces`), so a server reads them by range
 * and verifies what it reads; sections.bin stores each section's parent and keeps its text last;
 * profile.json holds the corpus profile.
 */
export const INDEX_FORMAT_VERSION = 6;

const fieldNumbers = (value: z.ZodNumber) => z.object({ title: value, headings: value, body: value });

const lexicalParamsSchema = z.object({
  k1: z.number().positive(),
  weights: fieldNumbers(z.number().nonnegative()),
  b: fieldNumbers(z.number().min(0).max(1)),
}) satisfies z.ZodType<LexicalParams>;

const hnswParamsSchema = z.object({
  m: z.number().int().min(2).max(128),
  efConstruction: z.number().int().min(8),
  efSearch: z.number().int().min(8),
  seed: z.number().int(),
}) satisfies z.ZodType<HnswParams>;

const fusionSettingsSchema = z.object({
  /** (1 - vectorWeight) × max-normalised lexical + vectorWeight × normalised cosine (fuse.ts). */
  method: z.literal('weighted'),
  vectorWeight: z.number().min(0).max(1),
  /** How many nearest sections the vector side contributes. */
  vectorCandidates: z.number().int().positive(),
  /** Whether pages that share no word with the query may be returned on vector similarity alone. */
  vectorOnlyResults: z.boolean(),
  /** A document's score: its best section's plus this share of the next best sections'. */
  documentSupportWeight: z.number().min(0).max(1),
  /**
   * A document's score also gains this × the IDF share of the query's own terms it matches in any
   * of its sections, so a page that answers every part of a long question beats one section that
   * repeats one of its words. Indexes built before it existed rank without it.
   */
  documentBreadthWeight: z.number().min(0).max(1).default(0),
});
export type FusionSettings = z.infer<typeof fusionSettingsSchema>;

/** Minimum confidence for each label; below the last one a result is "Somewhat relevant". */
const relevanceThresholdsSchema = z.object({
  excellent: z.number(),
  veryRelevant: z.number(),
  relevant: z.number(),
  moderate: z.number(),
});
export type RelevanceThresholds = z.infer<typeof relevanceThresholdsSchema>;

export const manifestSchema = z.object({
  formatVersion: z.number().int(),
  builtAt: z.string(),
  builder: z.string(),
  model: z.object({ id: z.string(), dimensions: z.number().int().positive(), checksum: z.string() }),
  corpus: z.object({
    checksum: z.string(),
    knowledgeBases: z.array(z.string()),
    documents: z.number().int().nonnegative(),
  }),
  sections: z.number().int().nonnegative(),
  chunking: z.object({
    maxSectionChars: z.number().int().positive(),
    /** The chunker's version (CHUNKER_VERSION): a reindex reuses sections only from a build with the same. */
    version: z.number().int().nonnegative().default(0),
  }),
  lexical: lexicalParamsSchema,
  hnsw: hnswParamsSchema,
  fusion: fusionSettingsSchema,
  relevance: relevanceThresholdsSchema,
  /** sha256 of every data file in the build folder, by file name. */
  files: z.record(z.string(), z.string()),
});
export type Manifest = z.infer<typeof manifestSchema>;

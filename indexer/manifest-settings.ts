import { DEFAULT_MODEL_ID } from '../src/embedding/default-model.js';
import { DEFAULT_LEXICAL_PARAMS, type LexicalParams } from '../src/index/lexical-data.js';
import type { FusionSettings, Manifest } from '../src/index/manifest.js';
import { hnswParamsFor, type HnswParams } from '../src/index/vector-index.js';
import { defaultFusionSettings } from '../src/search/fuse.js';
import { searchesGraph } from '../src/search/search-policy.js';
import { DEFAULT_RELEVANCE_THRESHOLDS } from '../src/search/relevance.js';
import { CHUNKER_VERSION, type ChunkOptions } from './chunk/chunk.js';

/** The build options that decide the manifest's settings. */
export interface SettingsOptions {
  lexical?: LexicalParams;
  hnsw?: HnswParams;
  fusion?: Partial<FusionSettings>;
  /**
   * Whether the build writes the HNSW graph; default: when the shipped search reads it (a sentence
   * model: search-policy.ts's searchesGraph). Benchmarks comparing graph and exact search ask for it.
   */
  vectorGraph?: boolean;
}

/** The settings a build records in its manifest, but for what the section count and the model decide. */
export interface ManifestSettings {
  chunking: Manifest['chunking'];
  lexical: Manifest['lexical'];
  /** The HNSW parameters a build of this many sections records. */
  hnsw: (sections: number) => Manifest['hnsw'];
  relevance: Manifest['relevance'];
  /** The fusion settings a build with this model id records. */
  fusion: (modelId: string) => Manifest['fusion'];
  /** Whether a build with these fusion settings writes the HNSW graph. */
  graph: (fusion: FusionSettings) => boolean;
}

/**
 * The one place the manifest's settings are built: the build writes them (build.ts's manifest
 * draft) and the unchanged-index check compares them (reindex/index-status.ts), so the two cannot
 * drift apart and a changed setting always rebuilds.
 */
export function manifestSettings(options: SettingsOptions, chunkOptions: ChunkOptions): ManifestSettings {
  return {
    chunking: { maxSectionChars: chunkOptions.maxSectionChars, version: CHUNKER_VERSION },
    lexical: options.lexical ?? DEFAULT_LEXICAL_PARAMS,
    hnsw: (sections) => options.hnsw ?? hnswParamsFor(sections),
    // In the manifest's own key order: the draft spreads these, and manifest.json keeps the order.
    fusion: (modelId) => ({ ...defaultFusionSettings(modelId === DEFAULT_MODEL_ID), ...options.fusion }),
    relevance: DEFAULT_RELEVANCE_THRESHOLDS,
    graph: (fusion) => options.vectorGraph ?? searchesGraph(fusion, {}),
  };
}

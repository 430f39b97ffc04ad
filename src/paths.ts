/**
 * Where svc-docs' folders are: the package root, and the cache of generated, reusable artefacts
 * (built models, the vector cache), outside git. The cache folder is a setting (SVC_DOCS_CACHE_DIR),
 * so it is parsed with every other setting in config.ts; this module keeps the one import path the
 * embedder, the indexer and the benchmarks use.
 */
export { cacheDir } from './config.js';
export { projectRoot } from './project-root.js';

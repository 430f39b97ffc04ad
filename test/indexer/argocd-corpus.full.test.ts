import { appendFileSync, cpSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex, type BuildSummary } from '../../indexer/build.js';
import { projectRoot } from '../../src/project-root.js';
import { openEngine, type LoadedEngine } from '../../src/search/engine.js';
import { tempDir } from '../helpers/index-fixture.js';

/**
 * The Argo CD docs (455 real pages in ../shared/corpora, beside the checkout, as CI has it): the
 * whole corpus indexes without error through the real indexer and model, and a one-file edit is
 * reindexed by embedding that file's changed sections only. The corpus is copied to a temporary
 * folder so the edit never touches the shared copy.
 */

const SHARED = join(projectRoot(), '..', 'shared', 'corpora', 'argocd');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md'));
}

// Outside CI a checkout without ../shared skips these; CI always has it, so there a missing folder fails.
if (process.env.CI === 'true' && !existsSync(SHARED)) {
  throw new Error(
    `${SHARED} is missing: CI clones ../shared beside the checkout, and the Argo CD corpus tests need it`,
  );
}

describe.skipIf(!existsSync(SHARED))('the Argo CD corpus', () => {
  let corpus: string;
  let outDir: string;
  let vectors: string;
  let full: BuildSummary;
  let engine: LoadedEngine | undefined;

  beforeAll(async () => {
    corpus = tempDir('argocd-corpus');
    cpSync(SHARED, join(corpus, 'argocd'), { recursive: true });
    outDir = tempDir('argocd-index');
    vectors = tempDir('argocd-vectors');
    full = await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir: vectors });
  });
  afterAll(async () => engine?.close());

  it('indexes every page, each into at least one section, all embedded', () => {
    expect(full.documents).toBe(markdownFiles(SHARED).length);
    expect(full.knowledgeBases).toEqual(['argocd']);
    expect(full.sections).toBeGreaterThan(full.documents);
    expect(full.sectionsEmbedded).toBe(full.sections);
    expect(full.changes.added).toHaveLength(full.documents);
    expect(full.documentsParsed).toBe(full.documents);
  });

  it('answers from the built index: a feature name finds its page', async () => {
    engine = await openEngine(outDir);
    const [top] = await engine.search('sync windows');
    expect(`${top!.source}/${top!.path}`).toBe('argocd/user-guide/sync_windows.md');
    expect(top!.title).toBe('Sync Windows');
  });

  it('reindexes a one-file edit by parsing only that file and embedding only the sections that changed', async () => {
    appendFileSync(
      join(corpus, 'argocd', 'faq.md'),
      '\n\n## How do I feed the zebrafish?\n\nThe zebrafish eats at dawn.\n',
    );
    const again = await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir: vectors });
    expect(again.changes).toEqual({ added: [], changed: ['argocd/faq.md'], removed: [] });
    expect(again.sections).toBe(full.sections + 1);
    expect(again.documentsParsed).toBe(1);
    // The new section, and the one before it if its text now ends differently; never the rest.
    expect(again.sectionsEmbedded).toBeGreaterThanOrEqual(1);
    expect(again.sectionsEmbedded).toBeLessThanOrEqual(2);
    expect(again.sectionsReused).toBe(again.sections - again.sectionsEmbedded);
    const edited = await openEngine(outDir);
    try {
      const [top] = await edited.search('zebrafish');
      expect(top!.path).toBe('faq.md');
      expect(top!.sections.find((s) => s.isBest)!.headings.at(-1)).toBe('How do I feed the zebrafish?');
    } finally {
      await edited.close();
    }
  });
});

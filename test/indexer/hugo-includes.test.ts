import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHUNK_OPTIONS } from '../../indexer/chunk/chunk.js';
import { chunkFile } from '../../indexer/parse/chunk-file.js';
import { loadCorpus } from '../../indexer/load/load-corpus.js';
import { projectRoot } from '../../src/project-root.js';

/**
 * The real Hugo docs (../shared/corpora/hugo): `_common/` is a headless branch bundle of
 * fragments that pages include with `{{% include %}}`. None of its files is a page with sections
 * of its own, and the pages that include them show their text, headings and all.
 */

const HUGO = join(projectRoot(), '..', 'shared', 'corpora', 'hugo');
const present = existsSync(HUGO);
if (!present) {
  if (process.env.CI === 'true') throw new Error(`${HUGO} is missing: CI has ../shared/corpora beside the checkout`);
  console.log(`hugo-includes: skipping, ${HUGO} is not there`);
}

describe.skipIf(!present)('the Hugo docs', () => {
  const docs = present ? loadCorpus([HUGO]) : [];
  const chunk = (path: string) => {
    const doc = docs.find((d) => d.path === path);
    if (doc === undefined) throw new Error(`${path} is not a page`);
    return chunkFile({ path: doc.path, source: doc.source }, DEFAULT_CHUNK_OPTIONS);
  };

  it('have no section in _common/', () => {
    const common = docs.filter((d) => d.path.startsWith('_common/'));
    expect(
      common.flatMap((d) => chunkFile({ path: d.path, source: d.source }, DEFAULT_CHUNK_OPTIONS).sections),
    ).toEqual([]);
  });

  it("show the fragments Linux installation includes, under the fragments' headings", () => {
    const sections = chunk('installation/linux.md').sections;
    const editions = sections.find((s) => s.headings.at(-1) === 'Editions');
    expect(editions?.text).toContain('Hugo is available in several editions.');
    const prerequisites = sections.find((s) => s.headings.at(-1) === 'Prerequisites');
    expect(prerequisites?.headings).toEqual(['Linux', 'Prerequisites']);
    expect(prerequisites?.text).toContain('Git is required to:');
  });
});

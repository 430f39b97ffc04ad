import { describe, expect, it } from 'vitest';
import { profileCorpus, type ProfileInput } from '../../src/index/corpus-profile.js';

/** A knowledge base of one-section pages, each page's text as given (headings that name no identifier). */
function kb(pages: Record<string, string>): ProfileInput {
  const entries = Object.entries(pages);
  return {
    documents: entries.map(([path], i) => ({ kb: 'docs', path, title: path, sectionCount: 1, firstSection: i })),
    sections: entries.map(([, text], i) => ({ headings: [`Page ${i + 1}`], text })),
  };
}

const family = 'Set `alphaOne`, `alphaTwo` and `alphaThree` together.';

describe('the example terms of a knowledge base', () => {
  it('name one identifier per family of pages before a second of the same family', () => {
    const [profile] = profileCorpus(
      kb({
        'a.md': family,
        'b.md': family,
        'c.md': family,
        'd.md': 'Use `betaOne` here.',
        'e.md': 'And `betaOne` there.',
      }),
    );
    // By pages alone the three alpha names (3 pages each) would all come before betaOne (2).
    expect(profile!.exampleTerms.slice(0, 2)).toEqual(['alphaOne', 'betaOne']);
    // Too few families to fill the list: the others follow, in the same order.
    expect(profile!.exampleTerms).toEqual(['alphaOne', 'betaOne', 'alphaThree', 'alphaTwo']);
  });

  it('keeps a name whose pages only partly overlap a chosen one', () => {
    const [profile] = profileCorpus(
      kb({
        'a.md': 'Use `alphaOne` and `gammaOne`.',
        'b.md': 'Use `alphaOne`.',
        'c.md': 'Use `alphaOne`.',
        'd.md': 'Use `gammaOne`.',
        'e.md': 'Use `gammaOne`.',
        'f.md': 'Use `betaOne`.',
      }),
    );
    // gammaOne shares one of its three pages with alphaOne: a different part of the docs.
    expect(profile!.exampleTerms).toEqual(['alphaOne', 'gammaOne', 'betaOne']);
  });

  it('shows API names, options, headers and flags before hosts, file names, constants and the product name', () => {
    const [profile] = profileCorpus(
      kb({
        'a.md': 'Edit `cm.yaml` on `argocd.example.com`; a `PERMISSION_DENIED` means `docs` lacks `API_KEY`.',
        'b.md': 'Edit `cm.yaml` on `argocd.example.com`; a `PERMISSION_DENIED` means `docs` lacks `API_KEY`.',
        'c.md': 'Edit `cm.yaml` on `argocd.example.com`; see `node_modules`, `JSON.parse` and `Next.js`.',
        'd.md': 'Set `targetRevision`.',
        'e.md': 'Send `Mcp-Session-Id`, or run with `--insecure`.',
        'f.md': 'Run with `--insecure`; set `SVC_DOCS_MODEL`.',
      }),
    );
    // By pages alone cm.yaml and argocd.example.com (3 pages) would come first. The header and
    // the constant share --insecure's pages and fill after targetRevision; a host fills last.
    expect(profile!.exampleTerms).toEqual([
      '--insecure',
      'targetRevision',
      'Mcp-Session-Id',
      'SVC_DOCS_MODEL',
      'argocd.example.com',
    ]);
  });
});

import { cpSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildIndex } from '../../indexer/build.js';
import type { Embedder } from '../../src/embedding/types.js';

/**
 * The abuse run's index: the Argo CD corpus plus one generated page just under the indexer's
 * 1 MiB file limit (what a batch of page reads asked for), built twice, so that the served index
 * folder holds two builds and CURRENT can be flipped between them: each flip is a live reload.
 */

/** The big page's URI path: svc-docs://big/reference.md. */
export const BIG_PAGE = { kb: 'big', path: 'reference.md' };

function bigPage(): string {
  const sections = Array.from(
    { length: 380 },
    (_, i) => `## Option ${i}\n\n${`Option ${i} sets knob ${i} of the sync engine, in seconds. `.repeat(44)}\n`,
  );
  return `# Big reference\n\nEvery option, one section each.\n\n${sections.join('\n')}`;
}

/** A page whose Markdown is costly to render (issue 40): found by `quokka zanzibar nesting`. */
const HOSTILE_PAGE = `# Quokka zanzibar nesting\n\nQuokka zanzibar nesting, deeply.\n\n${'>'.repeat(6000)} quokka\n\n${'*a_'.repeat(3000)}\n`;

export interface AbuseIndex {
  dir: string;
  /** The two build folders' names, and the builtAt each reports in /readyz. */
  builds: { name: string; builtAt: string }[];
}

/** Builds the index twice (the second reuses the vector cache) and puts both builds in `work`/served. */
export async function abuseIndex(argocdCorpus: string, work: string, embedder: Embedder): Promise<AbuseIndex> {
  // A corpus folder is one knowledge base, named after the folder.
  const corpus = join(work, BIG_PAGE.kb);
  mkdirSync(corpus, { recursive: true });
  writeFileSync(join(corpus, BIG_PAGE.path), bigPage());
  writeFileSync(join(corpus, 'hostile.md'), HOSTILE_PAGE);
  const served = join(work, 'abuse-index');
  rmSync(served, { recursive: true, force: true });
  mkdirSync(served, { recursive: true });
  const builds: AbuseIndex['builds'] = [];
  for (const copy of ['a', 'b']) {
    const out = join(work, `abuse-build-${copy}`);
    rmSync(out, { recursive: true, force: true });
    await buildIndex({ corpusDirs: [argocdCorpus, corpus], outDir: out, embedder });
    const name = readFileSync(join(out, 'CURRENT'), 'utf8').trim();
    cpSync(join(out, name), join(served, name), { recursive: true });
    const manifest = JSON.parse(readFileSync(join(out, name, 'manifest.json'), 'utf8')) as { builtAt: string };
    builds.push({ name, builtAt: manifest.builtAt });
  }
  pointAt(served, builds[0]!.name);
  return { dir: served, builds };
}

/** Makes CURRENT name `build`, atomically, as the indexer does. */
export function pointAt(dir: string, build: string): void {
  writeFileSync(join(dir, 'CURRENT.tmp'), `${build}\n`);
  renameSync(join(dir, 'CURRENT.tmp'), join(dir, 'CURRENT'));
}

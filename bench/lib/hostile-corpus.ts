import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { memoryOf } from './child-process.js';

/**
 * A corpus holding every hostile include and format of issue 40's findings, for the build's
 * memory bound (peak RSS ≤ 1 GiB, the indexer and its parser processes together), the hostile
 * Markdown bench (bench/abuse/hostile-markdown.ts) and bench/abuse/hostile-corpus.ts.
 * bench/abuse/hostile-corpus.ts builds it and prints one JSON line: documents, skipped, the
 * index's digest and the memory (treeMemory):
 *   npx tsx bench/abuse/hostile-corpus.ts [--ci]
 * Last measured (parser heap 384 MB, 2 workers of 192 MB, tsx, load 3-10 beside other builds):
 * peak 952 MB sampled, bound 969 MB, the indexer alone 483 MB; 111 documents, 4 left out, 763 s.
 * At CI's size: 679-686 MB, the same with a CPU hog per core (hostile-corpus.full.test.ts).
 */

function staircaseList(bytes: number): string {
  let out = '';
  for (let depth = 0; out.length < bytes; depth++) out += `${'  '.repeat(depth)}- item\n`;
  return out;
}

/** Markdown that is slow or deep to parse (issue 40 and before). */
export const HOSTILE_MARKDOWN: Record<string, () => string> = {
  'brackets-100k.md': () => '['.repeat(50_000) + ']'.repeat(50_000),
  'nested-list-1m.md': () => staircaseList(1_000_000),
  'list-markers-25k.md': () => '- '.repeat(12_500) + 'x\n',
  'deep-quote-20k.md': () => '>'.repeat(20_000) + ' deep\n',
  'unclosed-fence-1m.md': () => '# Unclosed\n\n```sh\n' + 'echo line\n'.repeat(100_000),
  'brackets-9m.md': () => '['.repeat(4_500_000) + ']'.repeat(4_500_000),
};

/**
 * A 1 MB fragment of some 23,000 one-line paragraphs: indented, every line gains the indentation. (One
 * paragraph of 24,000 lines took over 20 s of CPU to parse per including page.)
 */
const fragment = () => 'A line of the shared fragment, included.\n\n'.repeat(24_000).slice(0, 1_000_000);

/** HTML and AsciiDoc that take gigabytes to parse, or expand to them. */
function hostileFormats(): Record<string, string> {
  return {
    // 100,000 paragraphs: 1.3 GB to parse with no heap limit.
    'docs/paragraphs.html': `<html><body>${'<p>a b</p>'.repeat(100_000)}</body></html>`,
    'docs/deep.html': `<html><body>${'<div>'.repeat(200_000)}x</body></html>`,
    'docs/list.adoc': `= List\n\n${'* a\n'.repeat(250_000)}`,
    // Attributes that expand into one another, each four of the one before (Asciidoctor cuts each at
    // 4,096 characters): 2,000 {a} make 8 MB, refused before conversion (asciidoc-attributes.ts).
    'docs/attributes.adoc': `= T\n:h: ${'x'.repeat(60)}\n${[...'gfedcba']
      .map((c, i) => `:${c}: ${`{${'hgfedcb'[i]}}`.repeat(4)}\n`)
      .join('')}\n${'{a}\n\n'.repeat(2000)}`,
  };
}

/** A Hugo site's frame: an ordinary page, and a headless folder holding the fragment pages include. */
function frame(fragmentText: string, missing = 40_000, between = ''): Record<string, string> {
  return {
    'docs/_index.md': '---\ntitle: Hostile\n---\n\nAn ordinary page about rollback windows.\n',
    'docs/_common/_index.md': '---\ncascade:\n  build:\n    list: never\n    render: never\n---\n',
    'docs/_common/frag.md': fragmentText,
    // Includes of files that are not there (40,000: one paragraph of 40,000 lines, over 20 s of CPU to parse).
    'docs/missing.md': Array.from({ length: missing }, (_, i) => `{{% include "m${i}" %}}\n${between}`).join(''),
  };
}

/** What else a corpus may hold: includes that multiply (indented, repeated, missing) and costly HTML and AsciiDoc. */
function hostileFiles(): Record<string, string> {
  const files: Record<string, string> = { ...frame(fragment()), ...hostileFormats() };
  for (const [name, make] of Object.entries(HOSTILE_MARKDOWN)) files[`docs/md/${name}`] = make();
  for (const spaces of [100, 1000, 3000])
    files[`docs/indent-${spaces}.md`] = `Top\n${' '.repeat(spaces)}{{% include "_common/frag.md" %}}\n`;
  // A hundred small pages including the same 1 MB: 100 MB of text, past the per-build bound.
  for (let i = 0; i < 100; i++) files[`docs/many/p${i}.md`] = `# Page ${i}\n\n{{% include "_common/frag.md" %}}\n`;
  return files;
}

/**
 * The hostile corpus at CI's size (test/reliability/hostile-corpus.full.test.ts), each input
 * scaled to what meets its bound and no more: the HTML and AsciiDoc as above (over the parser's
 * heap, or over a bound counted before parsing), Markdown over the file size limit, a 21 KB
 * fragment that 3,000 spaces of indentation take past the per-page include bound (100 spaces stay
 * within it), 400 missing includes. Left to tests of their own: the per-corpus include bound
 * (32 MiB to meet it, test/indexer/includes.test.ts) and Markdown that needs the CPU time limit
 * (test/reliability/hostile-markdown.test.ts), indexed as plain text whichever bound stops it:
 * the whole corpus's 40,000 missing includes are one paragraph micromark parses in over 20 s of
 * CPU, and 20,000 nested `>` ran out of heap in one build and over 20 s of CPU in the next. The
 * pages left out:
 */
export const CI_SKIPPED = ['attributes.adoc', 'deep.html', 'list.adoc', 'paragraphs.html'];

function ciFiles(): Record<string, string> {
  const files: Record<string, string> = {
    // 400 missing includes, a paragraph each, are told in a few lines.
    ...frame('A line of the shared fragment, included.\n\n'.repeat(500), 400, '\n'),
    ...hostileFormats(),
    'docs/md/brackets-9m.md': HOSTILE_MARKDOWN['brackets-9m.md']!(),
    'docs/md/unclosed-fence.md': `# Unclosed\n\n\`\`\`sh\n${'echo line\n'.repeat(2_000)}`,
  };
  for (const spaces of [100, 3000])
    files[`docs/indent-${spaces}.md`] = `Top\n${' '.repeat(spaces)}{{% include "_common/frag.md" %}}\n`;
  return files;
}

/** Writes the hostile corpus below `root`, whole or at CI's size; returns the corpus folder. */
export function writeHostileCorpus(root: string, size: 'full' | 'ci' = 'full'): string {
  for (const [path, text] of Object.entries(size === 'ci' ? ciFiles() : hostileFiles())) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return join(root, 'docs');
}

/** A digest of every file of an index build folder but the manifest's build time. */
export function indexDigest(buildDir: string): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(buildDir).sort()) {
    const bytes = readFileSync(join(buildDir, name));
    const manifest =
      name === 'manifest.json' ? (JSON.parse(bytes.toString('utf8')) as Record<string, unknown>) : undefined;
    if (manifest) delete manifest.builtAt;
    hash.update(name).update(manifest ? JSON.stringify(manifest) : bytes);
  }
  return hash.digest('hex');
}

/** A process's descendants (the parser processes), from /proc: each thread lists those it started. */
function descendants(pid: number | 'self'): number[] {
  const pids: number[] = [];
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return pids;
  }
  for (const tid of tasks) {
    try {
      const listed = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
      if (listed !== '') pids.push(...listed.split(/\s+/).map(Number));
    } catch {
      // The thread ended while listed.
    }
  }
  return pids.flatMap((child) => [child, ...descendants(child)]);
}

/**
 * The memory of a process (this one by default) and its descendants, read every `everyMs` from
 * /proc: the peak of their RSS added up (`peakMB`, as sampled), and a bound (`boundMB`): the
 * largest, over the samples, of each one's peak so far (VmHWM) added up. A child's last `everyMs`
 * before it ends are not seen; the parser's heap limit bounds what they could add.
 */
export function treeMemory(
  everyMs = 50,
  root: number | 'self' = 'self',
): () => { peakMB: number; boundMB: number; mainPeakMB: number } {
  let peakMB = 0;
  let boundMB = 0;
  let mainPeakMB = 0;
  const sample = () => {
    const main = memoryOf(root);
    mainPeakMB = Math.max(mainPeakMB, main.peakMB);
    let sum = main.rssMB;
    let bound = main.peakMB;
    for (const pid of descendants(root)) {
      const child = memoryOf(pid);
      sum += child.rssMB;
      bound += child.peakMB;
    }
    peakMB = Math.max(peakMB, sum);
    boundMB = Math.max(boundMB, bound);
  };
  const timer = setInterval(sample, everyMs);
  return () => {
    sample();
    clearInterval(timer);
    return {
      peakMB: Math.round(Math.max(peakMB, mainPeakMB)),
      boundMB: Math.round(Math.max(boundMB, mainPeakMB)),
      mainPeakMB: Math.round(mainPeakMB),
    };
  };
}

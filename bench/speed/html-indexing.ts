import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { toHtml } from 'hast-util-to-html';
import { toHast } from 'mdast-util-to-hast';
import { closeIdleChunker } from '../../indexer/parse/bounded-chunk.js';
import { buildIndex } from '../../indexer/build.js';
import { parseMarkdown } from '../../indexer/chunk/chunk.js';
import { flagValue } from '../lib/flags.js';

/**
 * What reading HTML costs the indexer: a Markdown corpus rendered as a static site would render
 * it (each page's HTML inside a MkDocs-Material-like page: header, a navigation listing every
 * page, a table of contents, footer, scripts), and a full build of each, interleaved in one run,
 * from nothing (fresh vector cache, fresh index). Reported as the ratio of the medians.
 *   npx tsx bench/speed/html-indexing.ts [--corpus=../shared/corpora/argocd] [--runs=3]
 */

const corpus = flagValue('corpus') ?? join(import.meta.dirname, '..', '..', '..', 'shared', 'corpora', 'argocd');
const runs = Number(flagValue('runs') ?? 3);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.mdx?$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

function page(title: string, body: string, nav: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} - Docs</title>
<link rel="stylesheet" href="/assets/main.css"><script>var __md_scope=new URL("..",location)</script></head>
<body><header class="md-header"><nav aria-label="Header"><a href="/">Docs</a><form role="search"><input name="q"></form></nav></header>
<main class="md-main"><div class="md-sidebar md-sidebar--primary"><nav class="md-nav" aria-label="Navigation"><ul>${nav}</ul></nav></div>
<div class="md-content"><article class="md-content__inner md-typeset"><a href="/edit" title="Edit this page" class="md-content__button">e</a>
${body}</article></div></main>
<footer class="md-footer"><nav aria-label="Footer"><a href="/prev">Previous</a><a href="/next">Next</a></nav><div class="md-copyright">Made with Material for MkDocs</div></footer>
<script src="/assets/bundle.js"></script></body></html>`;
}

/** The corpus as HTML pages in `out`, each page's path with `.html` for `.md`. */
function renderSite(files: string[], out: string): void {
  const nav = files.map((f) => `<li><a href="/${relative(corpus, f)}">${relative(corpus, f)}</a></li>`).join('');
  for (const file of files) {
    const tree = parseMarkdown(readFileSync(file, 'utf8'));
    const body = toHtml(toHast(tree));
    const title = /<h1[^>]*>(.*?)<\/h1>/s.exec(body)?.[1]?.replace(/<[^>]+>/g, '') ?? 'Page';
    const target = join(out, relative(corpus, file)).replace(/\.mdx?$/, '.html');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, page(title, body, nav));
  }
}

async function timedBuild(dir: string, root: string): Promise<number> {
  await closeIdleChunker();
  const work = mkdtempSync(join(root, 'build-'));
  const summary = await buildIndex({
    corpusDirs: [dir],
    outDir: join(work, 'index'),
    vectorCacheDir: join(work, 'vectors'),
  });
  return summary.seconds;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const root = mkdtempSync(join(tmpdir(), 'svc-docs-html-bench-'));
try {
  const files = markdownFiles(corpus);
  const site = join(root, 'site');
  renderSite(files, site);
  const bytes = (list: string[]) => list.reduce((n, f) => n + readFileSync(f).length, 0);
  const htmlFiles = readdirSync(site, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  console.log(
    `${files.length} pages: Markdown ${bytes(files).toLocaleString('en-US')} bytes, HTML ${bytes(htmlFiles.map((e) => join(e.parentPath, e.name))).toLocaleString('en-US')} bytes`,
  );
  const times = { markdown: [] as number[], html: [] as number[] };
  for (let run = 0; run < runs; run++) {
    times.markdown.push(await timedBuild(corpus, root));
    times.html.push(await timedBuild(site, root));
    console.log(
      `run ${run + 1}: Markdown ${times.markdown.at(-1)!.toFixed(2)} s, HTML ${times.html.at(-1)!.toFixed(2)} s`,
    );
  }
  const ratio = median(times.html) / median(times.markdown);
  console.log(
    `full build from nothing, median of ${runs}: Markdown ${median(times.markdown).toFixed(2)} s, HTML ${median(times.html).toFixed(2)} s: HTML / Markdown ${ratio.toFixed(2)}x`,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}

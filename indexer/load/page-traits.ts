import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';
import { findIncludes } from '../chunk/dialects/include-directives.js';
import { record } from '../../src/record.js';
import type { Data, SiteGenerator } from './site-readers.js';

/**
 * What a page's own text says about how its site treats it, remembered with its digest
 * (corpus-digests.ts) so that an unchanged page need not be read to know it:
 * - `includes`: it pulls in other files (dialects/include-directives.ts);
 * - `headless`: Hugo never renders it (front matter `headless: true`, `build.render: never`,
 *   `_build.render: never`, or the older `render: false`);
 * - `cascadesHeadless`: a Hugo branch bundle's `_index.md` whose `cascade` sets that for every
 *   page below it (`content/en/_common/` in Hugo's docs); the `_index.md` itself follows its own.
 * Pure: text in, traits out.
 */

export interface PageTraits {
  includes: boolean;
  headless: boolean;
  cascadesHeadless: boolean;
}

const FRONTMATTER = /^\uFEFF?(---|\+\+\+)[ \t]*\r?\n([\s\S]*?\r?\n)??\1[ \t]*(?:\r?\n|$)/;

/** A page's front matter (YAML or TOML) when its text matches `mentions`; undefined when it has none or it does not parse. */
export function frontMatter(source: string, mentions = /./): Data | undefined {
  const m = FRONTMATTER.exec(source);
  if (!m || !mentions.test(m[2] ?? '')) return undefined;
  try {
    return record(m[1] === '+++' ? parseToml(m[2] ?? '') : parseYaml(m[2] ?? '', { logLevel: 'silent' }));
  } catch {
    // Front matter that does not parse says nothing.
    return undefined;
  }
}

/**
 * Settings that keep Hugo from showing a page: `headless: true`, or `build` (`_build`) `render:
 * never` (or false) unless `list` says the page stays in its section's collections (`local`,
 * `always`): a list template then shows it on another page, as the Hugo docs' glossary does, and
 * it stays a page of its own here, as the text is not lost.
 */
function neverRenders(data: Data | undefined): boolean {
  if (data === undefined) return false;
  if (data.headless === true) return true;
  const build = record(data.build) ?? record(data._build);
  const render = build?.render ?? data.render;
  return (render === 'never' || render === false) && build?.list !== 'local' && build?.list !== 'always';
}

export function pageTraits(source: string): PageTraits {
  // Parsing every page's front matter would be most of a load's time: only these keys matter.
  const data = frontMatter(source, /headless|render/);
  const cascade = data?.cascade;
  const cascades = Array.isArray(cascade) ? cascade.map(record) : [record(cascade)];
  return {
    includes: findIncludes(source).length > 0,
    headless: neverRenders(data),
    // A cascade aimed at some pages only (`_target`) is not read as the whole branch's.
    cascadesHeadless: cascades.some((c) => c !== undefined && c._target === undefined && neverRenders(c)),
  };
}

/** Traits as remembered (one letter each). */
export function traitsText(traits: PageTraits): string {
  return `${traits.includes ? 'i' : ''}${traits.headless ? 'h' : ''}${traits.cascadesHeadless ? 'c' : ''}`;
}

export function traitsOf(text: string): PageTraits {
  return { includes: text.includes('i'), headless: text.includes('h'), cascadesHeadless: text.includes('c') };
}

/**
 * Why a page is never rendered by its site, or undefined when it is a page. `path` is in its
 * knowledge base; `cascading` holds the folders (knowledge-base paths, '' the top) whose
 * `_index.md` cascades headless.
 */
export function neverRendered(
  path: string,
  traits: PageTraits,
  cascading: ReadonlySet<string>,
  generator: SiteGenerator | undefined,
): string | undefined {
  if (traits.headless) return 'its front matter says Hugo never renders it (headless)';
  const folders = path.split('/').slice(0, -1);
  // Its own folder's `_index.md` cascades to the pages beside it, not to itself.
  const own = /(^|\/)_index\.[^/]+$/.test(path) ? folders.length - 1 : folders.length;
  for (let n = 0; n <= own; n++)
    if (cascading.has(folders.slice(0, n).join('/')))
      return `it is in a Hugo bundle that is never rendered (${[...folders.slice(0, n), '_index.md'].join('/')} cascades headless)`;
  // Docusaurus routes no file or folder whose name starts with `_`: partials live there.
  if ((generator === 'docusaurus' || path.endsWith('.mdx')) && path.split('/').some((part) => part.startsWith('_')))
    return 'Docusaurus does not route files or folders whose name starts with "_" (a partial)';
  return undefined;
}

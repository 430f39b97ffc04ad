import { basename } from 'node:path';
import { kbNameSchema, readKbConfig } from './kb-config.js';
import { homePageName } from './page-title.js';
import { folderUrl, type PublishedSite } from './page-url.js';
import { ancestors, findSite } from './site-config.js';
import type { SiteGenerator } from './site-readers.js';

/**
 * A knowledge base's name (Source in results) and where its pages are published. The name is,
 * first that applies: `name` in its kb.json; the site's declared title (mkdocs.yml site_name,
 * docusaurus.config title, Hugo title, VitePress title, mdBook title: for a subfolder of a corpus, only a config
 * in that subfolder, as the site above is all of them); for a corpus root, the title of its home
 * page (README.md, index.md, _index.md) when that reads as a name, then the root's own name (a git
 * corpus's repository name); else the folder's name. Its pages' URLs come from kb.json's
 * `baseUrl` and `urlStyle`, else from the URL of the site whose content holds the folder.
 */

/** A folder a corpus is read from, as the sources (indexer/sources/) resolved it. */
export interface CorpusRoot {
  dir: string;
  /** The name a root knowledge base falls back to before the folder's (a git corpus's repository name). */
  name?: string;
  /** Where to look for a site configuration, nearest first; default: the folder and two above it. */
  siteDirs?: string[];
  /** The folder whose remembered file digests this root owns (a git corpus's clone, whose earlier checkouts are dropped). */
  scope?: string;
  /** Each page's published URL by its absolute file path, where a source knows it (a crawled website). */
  pageUrls?: ReadonlyMap<string, string>;
}

export interface KnowledgeBase {
  name: string;
  /** How its pages' public URLs are made; undefined when nothing declares where it is published. */
  site: PublishedSite | undefined;
  /** What its site generator's configuration says of where pages and included files are. */
  layout: SiteLayout;
  /** Pages' URLs as their source knows them, before `site`'s. */
  pageUrls?: ReadonlyMap<string, string>;
}

export interface SiteLayout {
  /** The folder that content paths start from: the site's content folder when it holds the knowledge base, else its folder. */
  contentRoot: string;
  generator?: SiteGenerator;
  snippetBases?: string[];
}

const SITE_LEVELS_ABOVE = 2;

function usableName(name: string | undefined): string | undefined {
  const parsed = kbNameSchema.safeParse(name);
  return parsed.success ? parsed.data : undefined;
}

/** An mdBook's source folder is the book: it takes the book's title. */
function isBook(site: { generator: SiteGenerator; contentRoot: string } | undefined, kbDir: string): boolean {
  return site?.generator === 'mdbook' && site.contentRoot === kbDir;
}

/** The knowledge base in `kbDir`, a folder of the corpus `root` or the root itself (when its pages sit at its top). */
export function knowledgeBase(kbDir: string, root: CorpusRoot): KnowledgeBase {
  const config = readKbConfig(kbDir);
  const isRoot = kbDir === root.dir;
  const rootDirs = root.siteDirs ?? ancestors(root.dir, SITE_LEVELS_ABOVE);
  const site = findSite(isRoot ? rootDirs : [kbDir, ...rootDirs], kbDir);
  const name =
    config.name ??
    usableName(isRoot || site?.configDir === kbDir || isBook(site, kbDir) ? site?.title : undefined) ??
    (isRoot ? (usableName(homePageName(kbDir)) ?? usableName(root.name)) : undefined) ??
    basename(kbDir);
  const base = config.baseUrl ?? site?.base;
  const layout: SiteLayout = {
    contentRoot: site?.contentRoot ?? kbDir,
    ...(site?.generator !== undefined && { generator: site.generator }),
    ...(site?.snippetBases !== undefined && { snippetBases: site.snippetBases }),
  };
  return {
    name,
    layout,
    ...(root.pageUrls !== undefined && { pageUrls: root.pageUrls }),
    site:
      base === undefined
        ? undefined
        : {
            base: folderUrl(base),
            style: config.urlStyle ?? site?.style ?? 'directory',
            contentRoot: config.baseUrl !== undefined || site === undefined ? kbDir : site.contentRoot,
          },
  };
}

import { resolve } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { parseDocument } from 'yaml';
import { record } from '../../src/record.js';
import { isPublicUrl } from './kb-config.js';
import { folderUrl, type UrlStyle } from './page-url.js';

/**
 * What a site generator's configuration declares about the site: its title, the URL it is
 * published at, how it maps files to URLs, and the folder its pages come from. Read as data only:
 * YAML and TOML are parsed; a JavaScript config (Docusaurus, VitePress) is never run, its
 * top-level string literals are read with a regular expression. Each reader is a pure function
 * of the config's folder and text, and answers undefined for a file it does not recognise.
 */

export interface SiteInfo {
  title: string | undefined;
  /** Where `contentRoot` is published, ending in `/`; undefined when the config does not say. */
  base: string | undefined;
  style: UrlStyle;
  /** The folder the site's pages are read from. */
  contentRoot: string;
  generator: SiteGenerator;
  /** Where PyMdown snippets are looked for (MkDocs' `pymdownx.snippets` `base_path`), absolute. */
  snippetBases?: string[];
}

export type SiteGenerator = 'mkdocs' | 'docusaurus' | 'hugo' | 'vitepress' | 'mdbook';

export type SiteReader = (dir: string, text: string, file: string) => SiteInfo | undefined;

export type Data = Record<string, unknown>;

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function publicBase(url: string | undefined): string | undefined {
  return url !== undefined && isPublicUrl(url) ? folderUrl(url) : undefined;
}

/** YAML, TOML or JSON by the file's extension; undefined when it does not parse to an object. */
function parseData(source: string, file: string): Data | undefined {
  if (/\.toml$/i.test(file)) return record(parseToml(source));
  if (/\.json$/i.test(file)) return record(JSON.parse(source));
  // MkDocs configs use Python tags (!!python/name:…): kept as plain values, not errors.
  const doc = parseDocument(source, { logLevel: 'silent' });
  return doc.errors.length > 0 ? undefined : record(doc.toJS());
}

/** mkdocs.yml: site_name, site_url, docs_dir (default docs), use_directory_urls (default true). */
export const readMkdocs: SiteReader = (dir, source, file) => {
  const data = parseData(source, file);
  if (!data) return undefined;
  return {
    title: text(data.site_name),
    base: publicBase(text(data.site_url)),
    style: data.use_directory_urls === false ? 'html' : 'directory',
    contentRoot: resolve(dir, text(data.docs_dir) ?? 'docs'),
    generator: 'mkdocs',
    // Snippets resolve against the folder MkDocs runs in (the config's) unless base_path says.
    snippetBases: snippetBasePaths(data).map((base) => resolve(dir, base)),
  };
};

/** `markdown_extensions: [{ 'pymdownx.snippets': { base_path: … } }]`, a string or a list; default ['.']. */
function snippetBasePaths(data: Data): string[] {
  const extensions = Array.isArray(data.markdown_extensions)
    ? data.markdown_extensions
    : [record(data.markdown_extensions)];
  for (const entry of extensions) {
    const options = record(record(entry)?.['pymdownx.snippets']);
    const base = options?.base_path;
    if (typeof base === 'string') return [base];
    if (Array.isArray(base)) return base.filter((b): b is string => typeof b === 'string');
  }
  return ['.'];
}

/**
 * Hugo's hugo.toml/yaml/json (or config.*, taken only when it sets baseURL): title, baseURL,
 * the default language's content folder (languages.<lang>.contentDir, else contentDir, else
 * content), uglyURLs.
 */
export const readHugo: SiteReader = (dir, source, file) => {
  const data = parseData(source, file);
  if (!data) return undefined;
  const baseURL = text(data.baseURL ?? data.baseurl);
  if (/^config\./i.test(file) && baseURL === undefined) return undefined;
  const language = text(data.defaultContentLanguage) ?? 'en';
  const languageDir = text(record(record(data.languages)?.[language])?.contentDir);
  return {
    title: text(data.title),
    base: publicBase(baseURL),
    style: data.uglyURLs === true ? 'html' : 'directory',
    contentRoot: resolve(dir, languageDir ?? text(data.contentDir) ?? 'content'),
    generator: 'hugo',
  };
};

/**
 * A top-level string literal `key: '…'` of a JavaScript or TypeScript config: of the matches,
 * the least indented (the config object's own keys sit above nested ones such as a navbar's
 * title). Template literals with substitutions are skipped.
 */
export function jsLiteral(source: string, key: string): string | undefined {
  const pattern = new RegExp(`^([ \\t]*)${key}\\s*:\\s*(['"\`])((?:\\\\.|(?!\\2)[^\\\\\\n])*)\\2`, 'gm');
  let best: { indent: number; value: string } | undefined;
  for (const match of source.matchAll(pattern)) {
    const value = match[3]!;
    if (match[2] === '`' && value.includes('${')) continue;
    const indent = match[1]!.length;
    if (best === undefined || indent < best.indent) best = { indent, value: value.replace(/\\(.)/g, '$1') };
  }
  return best === undefined ? undefined : text(best.value);
}

/** docusaurus.config.*: title, url + baseUrl + the docs' routeBasePath (default docs), trailingSlash; pages from docs/. */
export const readDocusaurus: SiteReader = (dir, source) => {
  const url = jsLiteral(source, 'url');
  let base: string | undefined;
  if (url !== undefined && isPublicUrl(url)) {
    const path = [jsLiteral(source, 'baseUrl') ?? '/', jsLiteral(source, 'routeBasePath') ?? 'docs']
      .join('/')
      .replace(/\/+/g, '/');
    base = publicBase(new URL(path, url).href);
  }
  return {
    title: jsLiteral(source, 'title'),
    base,
    style: /^\s*trailingSlash\s*:\s*true\b/m.test(source) ? 'directory' : 'plain',
    contentRoot: resolve(dir, 'docs'),
    generator: 'docusaurus',
  };
};

/** .vitepress/config.*: title, srcDir; a URL only where the sitemap names its hostname (with base, cleanUrls). */
export const readVitepress: SiteReader = (dir, source) => {
  const hostname = jsLiteral(source, 'hostname');
  const base =
    hostname !== undefined && isPublicUrl(hostname)
      ? publicBase(new URL(jsLiteral(source, 'base') ?? '/', hostname).href)
      : undefined;
  return {
    title: jsLiteral(source, 'title'),
    base,
    style: /^\s*cleanUrls\s*:\s*true\b/m.test(source) ? 'plain' : 'html',
    contentRoot: resolve(dir, jsLiteral(source, 'srcDir') ?? '.'),
    generator: 'vitepress',
  };
};

/**
 * mdBook's book.toml: `[book] title` and `src` (default src). Its `site-url` is a path on an
 * unnamed host, so no URL is made from it.
 */
export const readMdbook: SiteReader = (dir, source, file) => {
  const book = record(parseData(source, file)?.book);
  return {
    title: text(book?.title),
    base: undefined,
    style: 'html',
    contentRoot: resolve(dir, text(book?.src) ?? 'src'),
    generator: 'mdbook',
  };
};

/** A book's sources without its book.toml: `src/SUMMARY.md`, whose first `# ` heading is the title. */
export const readMdbookSummary: SiteReader = (dir, source) => ({
  title: text(/^#[ \t]+(.+?)[ \t#]*$/m.exec(source)?.[1]),
  base: undefined,
  style: 'html',
  contentRoot: resolve(dir, 'src'),
  generator: 'mdbook',
});

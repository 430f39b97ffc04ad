import { createHash } from 'node:crypto';
import { lstatSync, realpathSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { IncludedFile } from '../chunk/dialects/expand-includes.js';
import type { IncludeDirective } from '../chunk/dialects/include-directives.js';
import type { SiteLayout } from './knowledge-base.js';
import { readRegularFile } from './regular-file.js';

/**
 * The files pages include, read from disk: where each generator looks for a directive's target,
 * and the guards on what may be read. A target is read only when it resolves inside the corpus
 * folder with no symbolic link on the way (`../../etc/passwd` and a link out of the corpus are
 * missing files), is a regular file within the per-file size limit and holds text (no NUL).
 * Each file is read once per load; its sha256 goes into the digest of every page including it.
 *
 * Where a target is looked for, first found wins:
 * - Hugo `include`: as the docs site's shortcode does (`$.Page.GetPage`, then `site.GetPage`): a
 *   path starting with `/` from the content folder, else from the including file's folder, then
 *   from the content folder; a page path may omit `.md` (or name a bundle's `index.md`/`_index.md`).
 * - PyMdown snippets: each `base_path` of mkdocs.yml (default: the folder holding mkdocs.yml),
 *   then the docs folder, then the corpus folder.
 * - VitePress: from the including file's folder; `@/` from the source folder.
 * - MDX partials and mdBook includes: from the including file's folder.
 */

export interface ReadInclude extends IncludedFile {
  hash: string;
}

export class IncludeFiles {
  private readonly read = new Map<string, ReadInclude | null>();
  /** The corpus folder as given, and as the system resolves it (a link on its way taken). */
  private readonly given: string;
  private readonly root: string;

  constructor(
    corpusRoot: string,
    private readonly maxFileBytes: number,
  ) {
    this.given = resolve(corpusRoot);
    this.root = realpathSync(corpusRoot);
  }

  /** A path below the corpus folder as given, below its real path. */
  private real(path: string): string {
    const rel = relative(this.given, path);
    return rel.startsWith('..') || isAbsolute(rel) ? path : join(this.root, rel);
  }

  /** A file's id: its path in the corpus folder, forward slashes. */
  idOf(file: string): string {
    return relative(this.root, this.real(file)).split(sep).join('/');
  }

  fileOf(id: string): string {
    return join(this.root, ...id.split('/'));
  }

  /** Where `directive`, in the file `from` (an id), leads in a knowledge base laid out as `layout`. */
  resolve(directive: IncludeDirective, from: string, layout: SiteLayout): ReadInclude | undefined {
    for (const candidate of this.candidates(directive, dirname(this.fileOf(from)), layout)) {
      const file = this.readFile(this.real(candidate));
      if (file) return file;
    }
    return undefined;
  }

  private candidates(directive: IncludeDirective, folder: string, layout: SiteLayout): string[] {
    const target = directive.target;
    const content = layout.contentRoot;
    switch (directive.kind) {
      case 'hugo': {
        const bases = target.startsWith('/') ? [content] : [folder, content];
        return bases.flatMap((base) => pagePaths(join(base, target)));
      }
      case 'snippet':
        if (isAbsolute(target)) return [];
        return [...(layout.snippetBases ?? []), content, this.root].map((base) => join(base, target));
      case 'vitepress':
        return [target.startsWith('@/') ? join(content, target.slice(2)) : resolve(folder, target)];
      case 'mdx':
        return target.startsWith('.') ? [resolve(folder, target)] : [];
      case 'mdbook':
        return isAbsolute(target) ? [] : [resolve(folder, target)];
    }
  }

  private readFile(path: string): ReadInclude | undefined {
    const known = this.read.get(path);
    if (known !== undefined) return known ?? undefined;
    const file = this.readInside(path);
    this.read.set(path, file ?? null);
    return file;
  }

  private readInside(path: string): ReadInclude | undefined {
    const rel = relative(this.root, path);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
    try {
      // A link anywhere on the way would lead elsewhere: the real path must be the path.
      if (realpathSync(path) !== path) return undefined;
      const stat = lstatSync(path);
      if (!stat.isFile() || stat.size > this.maxFileBytes) return undefined;
      const bytes = readRegularFile(path);
      if (bytes.includes(0)) return undefined;
      const hash = createHash('sha256').update(bytes).digest('hex');
      return { id: this.idOf(path), text: bytes.toString('utf8'), hash };
    } catch {
      return undefined;
    }
  }
}

/** A Hugo page path as GetPage takes it: the file, else with `.md`, else a bundle's index. */
function pagePaths(path: string): string[] {
  if (extname(path) !== '') return [path];
  return [`${path}.md`, join(path, '_index.md'), join(path, 'index.md')];
}

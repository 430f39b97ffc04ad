import { createHash } from 'node:crypto';
import { type BigIntStats, statSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { SETTINGS } from '../../src/settings/catalogue.js';
import type { CorpusDigests } from '../write/corpus-digests.js';
import { CorpusError, checkCorpusFolder } from '../../src/corpus-folder.js';
import { escapeName, knowledgeBaseFolders } from './corpus-walk.js';
import { SUPPORTED_EXTENSIONS } from '../formats/supported.js';
import { type CorpusRoot, type KnowledgeBase, knowledgeBase } from './knowledge-base.js';
import { IncludeFiles } from './include-files.js';
import { pageTraits, traitsOf, traitsText } from './page-traits.js';
import { CORPUS_INCLUDE_FACTOR, type IncludeContext, pagesAsSeen, type ReadPage } from './pages-as-seen.js';
import type { PageDocument } from './pages-as-seen.js';
import { pageUrl } from './page-url.js';
import { readRegularFile, SpecialFileError } from './regular-file.js';
import { SkipLog } from './skipped-files.js';

/**
 * Reads knowledge bases of documents (indexer/formats/supported.ts says which files are) from
 * disk. Which files, in which knowledge base: corpus-walk.ts. Its name (Source in results) and
 * its pages' public URLs are knowledge-base.ts's: kb.json, the site's declared title and URL,
 * else the folder's name.
 *
 * What cannot be indexed safely is skipped with one line naming it (escaped), and the rest of
 * the corpus is read: odd names, symbolic links, FIFOs, sockets and devices (corpus-walk.ts) and
 * files over the size limit. No message quotes a file's content.
 */

export interface CorpusDocument extends PageDocument {
  /** Where the published site shows the page, when its knowledge base declares one. */
  url?: string;
}

export interface LoadOptions {
  /** Files larger than this are skipped (with a warning). */
  maxFileBytes?: number;
  /** Receives one line per skipped file or folder, and one for all files of unsupported types. */
  warn?: (line: string) => void;
  /** Where skipped files are recorded (and told, to its own warn): a build's, for its summary. */
  skips?: SkipLog;
  /**
   * Digests remembered from earlier builds (corpus-digests.ts): a file they vouch for is not
   * read until its text is asked for. Updated and saved with what this load hashed.
   */
  digests?: CorpusDigests;
}

interface Limits {
  maxFileBytes: number;
  skips: SkipLog;
  digests: CorpusDigests | undefined;
  /** When this load began: every file it hashes was read after it. */
  startedMs: number;
}

export const DEFAULT_MAX_FILE_BYTES = SETTINGS.maxFileBytes.default;

/** Reads the corpus folders (paths, or roots as indexer/sources/ resolved them). */
export function loadCorpus(corpusDirs: readonly (string | CorpusRoot)[], options: LoadOptions = {}): CorpusDocument[] {
  if (corpusDirs.length === 0) throw new CorpusError('no corpus folder given: pass --corpus DIR');
  const limits: Limits = {
    maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    skips: options.skips ?? new SkipLog(options.warn),
    digests: options.digests,
    startedMs: Date.now(),
  };
  const documents: CorpusDocument[] = [];
  const seen = new Map<string, string>();
  const roots = corpusDirs.map((d) => (typeof d === 'string' ? { dir: resolve(d) } : { ...d, dir: resolve(d.dir) }));
  const files = new Set<string>();
  const told = new Set<string>();
  const corpus = { left: CORPUS_INCLUDE_FACTOR * limits.maxFileBytes };
  for (const root of roots) {
    const { dir } = root;
    checkCorpusFolder(dir);
    const includes: IncludeContext = {
      files: new IncludeFiles(dir, limits.maxFileBytes),
      maxChars: limits.maxFileBytes,
      corpus,
      skips: limits.skips,
      told,
    };
    for (const { dir: kbDir, files: kbFiles } of knowledgeBaseFolders(dir, limits.skips)) {
      const kb = knowledgeBase(kbDir, root);
      const name = kb.name;
      const other = seen.get(name);
      if (other !== undefined) {
        throw new CorpusError(
          `two knowledge bases are both named "${name}" (${other} and ${kbDir}): rename one folder or set "name" in its kb.json`,
        );
      }
      seen.set(name, kbDir);
      const pages: ReadPage<CorpusDocument>[] = [];
      for (const file of kbFiles) {
        files.add(file);
        const page = readDocument(kb, kbDir, file, limits);
        if (page) pages.push(page);
      }
      // One push per page: spreading a knowledge base of 150,000 pages overflows the stack (the 1M-section build).
      for (const page of pagesAsSeen(pages, kb, includes)) documents.push(page);
    }
  }
  // A corpus with nothing to read ends in one line, which names the files it has instead.
  if (documents.length === 0) throw noDocuments(roots, limits.skips);
  limits.skips.reportUnsupported();
  options.digests?.save(
    roots.map((r) => r.scope ?? r.dir),
    files,
  );
  return documents;
}

function noDocuments(roots: readonly { dir: string }[], skips: SkipLog): CorpusError {
  const others = skips.unsupportedTypes.map((t) => `${t.extension} (${t.count})`).join(', ');
  return new CorpusError(
    `no documents found in ${roots.map((r) => r.dir).join(', ')}${others === '' ? '' : ` (only files of other types: ${others})`}: svc-docs reads files named ${SUPPORTED_EXTENSIONS.map((e) => `*${e}`).join(', ')}`,
  );
}

/**
 * loadCorpus's "no documents found" line from the folders' listing alone, for a first build to
 * say before it loads the parser and the model (issue 43: each bad first-hour input in 2 s).
 * Files it lists may still all be left out when read; loadCorpus says so then.
 */
export function checkHasDocuments(corpusDirs: readonly (string | CorpusRoot)[]): void {
  const skips = new SkipLog(() => {});
  const roots = corpusDirs.map((d) => ({ dir: resolve(typeof d === 'string' ? d : d.dir) }));
  for (const { dir } of roots) {
    checkCorpusFolder(dir);
    if (knowledgeBaseFolders(dir, skips).some((kb) => kb.files.length > 0)) return;
  }
  throw noDocuments(roots, skips);
}

function readDocument(
  kbOf: KnowledgeBase,
  kbDir: string,
  file: string,
  limits: Limits,
): ReadPage<CorpusDocument> | undefined {
  const kb = kbOf.name;
  const path = relative(kbDir, file).split(sep).join('/');
  const url = kbOf.pageUrls?.get(file) ?? (kbOf.site && pageUrl(kbOf.site, file));
  let bytes: Buffer;
  let stat: BigIntStats;
  try {
    stat = statSync(file, { bigint: true });
    if (stat.size > BigInt(limits.maxFileBytes)) {
      limits.skips.skip(
        escapeName(`${kb}/${path}`),
        'too-large',
        `${bytesText(Number(stat.size))} is over the limit of ${bytesText(limits.maxFileBytes)} per file (SVC_DOCS_MAX_FILE_BYTES)`,
      );
      return undefined;
    }
    const known = limits.digests?.lookup(file, stat);
    if (known !== undefined)
      return {
        doc: unreadDocument({ kb, path, hash: known.hash, ...(url && { url }) }, file),
        file,
        traits: traitsOf(known.traits),
      };
    bytes = readRegularFile(file);
  } catch (error) {
    throw readError(file, error);
  }
  const hash = createHash('sha256').update(bytes).digest('hex');
  // Invalid UTF-8 becomes U+FFFD rather than failing the build: index what can be read.
  const source = bytes.toString('utf8');
  const traits = pageTraits(source);
  limits.digests?.record(file, stat, hash, limits.startedMs, traitsText(traits));
  return { doc: { kb, path, source, hash, ...(url && { url }) }, file, traits };
}

/**
 * A file whose digest was remembered: read when its text is asked for (only a file to parse is).
 * Should it change in between, its new text is indexed under the old digest until the next build,
 * which sees its new ctime and hashes it again.
 */
function unreadDocument(known: Omit<CorpusDocument, 'source'>, file: string): CorpusDocument {
  let text: string | undefined;
  return {
    ...known,
    get source() {
      try {
        text ??= readRegularFile(file).toString('utf8');
      } catch (error) {
        throw readError(file, error);
      }
      return text;
    },
  };
}

function readError(file: string, error: unknown): CorpusError {
  // A file swapped for a FIFO or a device after the folder was listed.
  if (error instanceof SpecialFileError) return new CorpusError(`cannot read ${escapeName(file)}: it is ${error.kind}`);
  return new CorpusError(`cannot read ${escapeName(file)}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
}

function bytesText(bytes: number): string {
  return `${bytes.toLocaleString('en-US')} bytes`;
}

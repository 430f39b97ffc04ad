import { createHash } from 'node:crypto';
import { type BigIntStats, existsSync, lstatSync, realpathSync, statSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { SvcDocsError } from '../src/errors.js';
import { SETTINGS } from '../src/settings/catalogue.js';
import { z } from 'zod';
import type { CorpusDigests } from './corpus-digests.js';
import { CONTROL, escapeName, knowledgeBaseFolders } from './corpus-walk.js';
import { SUPPORTED_EXTENSIONS } from './formats/supported.js';
import { readRegularFile, SpecialFileError } from './regular-file.js';
import { SkipLog } from './skipped-files.js';

/**
 * Reads knowledge bases of documents (indexer/formats/supported.ts says which files are) from
 * disk. Which files, in which knowledge base: corpus-walk.ts. The knowledge base's name (Source
 * in results) is its folder name unless a `kb.json` in it says `{ "name": "..." }`.
 *
 * What cannot be indexed safely is skipped with one line naming it (escaped), and the rest of
 * the corpus is read: odd names, symbolic links, FIFOs, sockets and devices (corpus-walk.ts) and
 * files over the size limit. No message quotes a file's content.
 */

export interface CorpusDocument {
  kb: string;
  /** Path within the knowledge base, forward slashes. */
  path: string;
  source: string;
  /** sha256 of the file's bytes: what incremental reindexing compares. */
  hash: string;
}

/** A corpus that cannot be indexed: a folder missing, a file unreadable, a bad knowledge-base name. */
export class CorpusError extends SvcDocsError<'invalid_corpus'> {
  override name = 'CorpusError';

  constructor(message: string) {
    super('invalid_corpus', message);
  }
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

/** In a `u` regex a surrogate class matches only a surrogate that is not half of a pair. */
const LONE_SURROGATE = /\p{Cs}/u;
const kbConfigSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .refine((name) => !CONTROL.test(name), 'a name of one line without control characters')
    // JSON can escape half a surrogate pair ("\ud800"); it would be stored as U+FFFD in the
    // index files but as itself in the manifest, so the two would disagree on the name.
    .refine((name) => !LONE_SURROGATE.test(name), 'well-formed text (a lone surrogate escape is not a character)'),
});

export function loadCorpus(corpusDirs: string[], options: LoadOptions = {}): CorpusDocument[] {
  if (corpusDirs.length === 0) throw new CorpusError('no corpus folder given: pass --corpus DIR');
  const limits: Limits = {
    maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    skips: options.skips ?? new SkipLog(options.warn),
    digests: options.digests,
    startedMs: Date.now(),
  };
  const documents: CorpusDocument[] = [];
  const seen = new Map<string, string>();
  const dirs = corpusDirs.map((d) => resolve(d));
  const files = new Set<string>();
  for (const dir of dirs) {
    if (!existsSync(dir) || !statSync(dir).isDirectory())
      throw new CorpusError(`corpus folder ${dir} does not exist or is not a folder`);
    for (const { dir: kbDir, files: kbFiles } of knowledgeBaseFolders(dir, limits.skips)) {
      const name = knowledgeBaseName(kbDir);
      const other = seen.get(name);
      if (other !== undefined) {
        throw new CorpusError(
          `two knowledge bases are both named "${name}" (${other} and ${kbDir}): rename one folder or set "name" in its kb.json`,
        );
      }
      seen.set(name, kbDir);
      for (const file of kbFiles) {
        files.add(file);
        const document = readDocument(name, kbDir, file, limits);
        if (document) documents.push(document);
      }
    }
  }
  limits.skips.reportUnsupported();
  options.digests?.save(dirs, files);
  if (documents.length === 0)
    throw new CorpusError(
      `no documents found in ${corpusDirs.join(', ')}: svc-docs reads files named ${SUPPORTED_EXTENSIONS.map((e) => `*${e}`).join(', ')}`,
    );
  return documents;
}

function knowledgeBaseName(kbDir: string): string {
  const configPath = join(kbDir, 'kb.json');
  if (!existsSync(configPath)) return basename(kbDir);
  if (lstatSync(configPath).isSymbolicLink() && !inside(realpathSync(configPath), realpathSync(kbDir))) {
    throw new CorpusError(
      `${configPath} is a symbolic link to a file outside its folder, which is never read: replace it with a file { "name": "..." }`,
    );
  }
  let text: string;
  try {
    text = readRegularFile(configPath).toString('utf8');
  } catch (error) {
    if (error instanceof SpecialFileError)
      throw new CorpusError(
        `${configPath} is ${error.kind}, not a regular file: replace it with a file { "name": "..." }`,
      );
    throw readError(configPath, error);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    // The parser's message quotes the file: say where, not what.
    throw new CorpusError(`${configPath} is not valid JSON: expected { "name": "..." }`);
  }
  const parsed = kbConfigSchema.strict().safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const why =
      issue?.code === 'unrecognized_keys'
        ? 'it has keys other than "name"'
        : `${issue?.path.join('.') || 'value'}: ${issue?.message ?? 'invalid'}`;
    throw new CorpusError(`${configPath} must be { "name": "<one-line string>" } (${why})`);
  }
  return parsed.data.name;
}

function inside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir + sep);
}

function readDocument(kb: string, kbDir: string, file: string, limits: Limits): CorpusDocument | undefined {
  const path = relative(kbDir, file).split(sep).join('/');
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
    if (known !== undefined) return unreadDocument(kb, path, file, known);
    bytes = readRegularFile(file);
  } catch (error) {
    throw readError(file, error);
  }
  const hash = createHash('sha256').update(bytes).digest('hex');
  limits.digests?.record(file, stat, hash, limits.startedMs);
  // Invalid UTF-8 becomes U+FFFD rather than failing the build: index what can be read.
  return { kb, path, source: bytes.toString('utf8'), hash };
}

/**
 * A file whose digest was remembered: read when its text is asked for (only a file to parse is).
 * Should it change in between, its new text is indexed under the old digest until the next build,
 * which sees its new ctime and hashes it again.
 */
function unreadDocument(kb: string, path: string, file: string, hash: string): CorpusDocument {
  let text: string | undefined;
  return {
    kb,
    path,
    hash,
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

import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { z } from 'zod';

/**
 * Reads Markdown knowledge bases from disk. A corpus folder with Markdown files at its top level
 * is one knowledge base; otherwise each top-level subfolder is one. The knowledge base's name
 * (Source in results) is its folder name unless a `kb.json` in it says `{ "name": "..." }`.
 */

export interface CorpusDocument {
  kb: string;
  /** Path within the knowledge base, forward slashes. */
  path: string;
  source: string;
  /** sha256 of the file's bytes: what incremental reindexing compares. */
  hash: string;
}

export class CorpusError extends Error {}

const MARKDOWN = /\.(md|markdown|mdx)$/i;
const kbConfigSchema = z.object({ name: z.string().trim().min(1).max(200) }).strict();

export function loadCorpus(corpusDirs: string[]): CorpusDocument[] {
  if (corpusDirs.length === 0) throw new CorpusError('no corpus folder given: pass --corpus DIR');
  const documents: CorpusDocument[] = [];
  const seen = new Map<string, string>();
  for (const dir of corpusDirs.map((d) => resolve(d))) {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new CorpusError(`corpus folder ${dir} does not exist or is not a folder`);
    for (const kbDir of knowledgeBaseDirs(dir)) {
      const name = knowledgeBaseName(kbDir);
      const other = seen.get(name);
      if (other !== undefined) {
        throw new CorpusError(`two knowledge bases are both named "${name}" (${other} and ${kbDir}): rename one folder or set "name" in its kb.json`);
      }
      seen.set(name, kbDir);
      for (const file of markdownFiles(kbDir)) documents.push(readDocument(name, kbDir, file));
    }
  }
  if (documents.length === 0) throw new CorpusError(`no Markdown files (*.md) found in ${corpusDirs.join(', ')}`);
  return documents;
}

function knowledgeBaseDirs(dir: string): string[] {
  const entries = readdirSync(dir, { withFileTypes: true });
  if (entries.some((e) => e.isFile() && MARKDOWN.test(e.name))) return [dir];
  return entries
    .filter((e) => e.isDirectory() && !isSkipped(e.name))
    .map((e) => join(dir, e.name))
    .filter((sub) => markdownFiles(sub).length > 0)
    .sort();
}

function knowledgeBaseName(kbDir: string): string {
  const configPath = join(kbDir, 'kb.json');
  if (!existsSync(configPath)) return basename(kbDir);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(configPath, 'utf8'));
  } catch (error) {
    throw new CorpusError(`${configPath} is not valid JSON (${(error as Error).message}): expected { "name": "..." }`);
  }
  const parsed = kbConfigSchema.safeParse(raw);
  if (!parsed.success) throw new CorpusError(`${configPath} must be { "name": "<non-empty string>" }: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data.name;
}

function isSkipped(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

/** Markdown files below a folder, sorted, so builds are reproducible. */
function markdownFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      if (isSkipped(entry.name)) continue;
      const full = join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && MARKDOWN.test(entry.name)) out.push(full);
    }
  };
  walk(dir);
  return out.sort();
}

function readDocument(kb: string, kbDir: string, file: string): CorpusDocument {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new CorpusError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return {
    kb,
    path: relative(kbDir, file).split(sep).join('/'),
    // Invalid UTF-8 becomes U+FFFD rather than failing the build: index what can be read.
    source: bytes.toString('utf8'),
    hash: createHash('sha256').update(bytes).digest('hex'),
  };
}

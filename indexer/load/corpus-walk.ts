import { type Dirent, existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { formatOf } from '../formats/supported.js';
import { bookSource } from './site-config.js';
import { specialKind } from './regular-file.js';
import type { SkipLog } from './skipped-files.js';

/**
 * Which files of a corpus folder are documents, and in which knowledge base: one walk of the
 * folder, each file it passes over told to the skip log once. A corpus folder with documents at
 * its top level is one knowledge base; otherwise each top-level subfolder holding documents is
 * one. An mdBook (book.toml, or src/SUMMARY.md) is one knowledge base, its source folder: what
 * lies beside it (the Rust book's `listings/`) is read only where pages include it. Files are
 * sorted, so builds are reproducible.
 *
 * Not walked, and not told: hidden files and folders (`.git`) and `node_modules`. Skipped with a
 * line naming them (escaped): names with control characters (a newline in a name would forge
 * lines of a search result) or that are not valid UTF-8 (they cannot be opened by the name the
 * system gives), symbolic links (never followed, so nothing outside the corpus is read), and
 * FIFOs, sockets and devices with a document's name (reading one may wait for ever).
 */

export const CONTROL = /[\p{Cc}\u2028\u2029]/u;

export interface KnowledgeBaseFolder {
  dir: string;
  /** Its documents, full paths, sorted. */
  files: string[];
}

/** A name as it may be shown in a message: control characters escaped, so it stays one line. */
export function escapeName(name: string): string {
  return name.replace(/[\p{Cc}\u2028\u2029\\]/gu, (c) =>
    c === '\\' ? '\\\\' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export function knowledgeBaseFolders(dir: string, log: SkipLog): KnowledgeBaseFolder[] {
  const book = bookSource(dir);
  if (book !== undefined && existsSync(book)) {
    // SUMMARY.md is the book's table of contents, never a page of its own.
    const pages = documentFiles(book, log).filter((file) => file !== join(book, 'SUMMARY.md'));
    return pages.length === 0 ? [] : [{ dir: book, files: pages }];
  }
  const files = documentFiles(dir, log);
  if (files.some((file) => dirname(file) === dir)) return [{ dir, files }];
  const byFolder = Map.groupBy(files, (file) => join(dir, relative(dir, file).split(sep)[0]!));
  return [...byFolder.keys()].sort().map((kbDir) => ({ dir: kbDir, files: byFolder.get(kbDir)! }));
}

function documentFiles(dir: string, log: SkipLog): string[] {
  const out: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (isSkipped(entry.name)) continue;
      const full = join(folder, entry.name);
      if (!usable(entry, full, log)) continue;
      if (entry.isDirectory()) walk(full);
      else if (entry.name === 'kb.json') continue;
      else if (formatOf(entry.name) === undefined) log.unsupported(entry.name);
      else if (entry.isFile()) out.push(full);
      else notRegular(entry, full, log);
    }
  };
  walk(dir);
  return out.sort();
}

/** A FIFO, socket or device with a document's name: reading one may wait for ever (regular-file.ts). */
function notRegular(entry: Dirent, full: string, log: SkipLog): void {
  const kind = specialKind(entry);
  if (kind !== undefined)
    log.skip(escapeName(full), 'not-regular-file', `it is ${kind}, not a regular file (only regular files are read)`);
}

function isSkipped(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

/** False (told to the log) for a name that cannot be shown or opened, and for a symbolic link. */
function usable(entry: Dirent, full: string, log: SkipLog): boolean {
  const shown = escapeName(full);
  if (CONTROL.test(entry.name)) {
    log.skip(shown, 'unreadable-name', 'its name contains control characters (rename it to index it)');
    return false;
  }
  // The system gives a name that is not UTF-8 with U+FFFD in its place, which opens nothing.
  if (entry.name.includes('\uFFFD') && !existsSync(full)) {
    log.skip(shown, 'unreadable-name', 'its name is not valid UTF-8 (rename it to index it)');
    return false;
  }
  // A kb.json link is load-corpus's to judge (it is read when it stays inside its folder).
  if (entry.isSymbolicLink() && entry.name !== 'kb.json') {
    log.skip(
      shown,
      'symbolic-link',
      'symbolic links are not followed (copy the file or folder into the corpus to index it)',
    );
    return false;
  }
  return true;
}

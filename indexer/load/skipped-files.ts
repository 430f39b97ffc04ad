import { extname } from 'node:path';
import { UNSUPPORTED_DOCUMENTS } from '../formats/supported.js';

/**
 * Every file a build leaves out, named once with why: as it happens (one line to the build's
 * log) and in the build's summary. Files of types the indexer does not read are counted by
 * extension and told in one line at the end of the walk (images and assets need not be listed
 * one by one); a documentation format it does not read gets a line of its own saying what to do.
 */

export type SkipReason =
  | 'unreadable-name'
  | 'symbolic-link'
  | 'not-regular-file'
  | 'too-large'
  | 'parse-timeout'
  | 'parse-remembered'
  | 'parse-failure'
  | 'never-rendered';

export interface SkippedFile {
  /** As the line names it: the path, escaped to one line. */
  file: string;
  reason: SkipReason;
  line: string;
}

export interface UnsupportedType {
  /** `.png`, or `no extension`. */
  extension: string;
  count: number;
}

/** What a build's summary says of the files it left out. */
export interface SkipSummary {
  /** Every file left out, each with why (each named once in the build's log as well). */
  leftOut: SkippedFile[];
  /** Files of types the indexer does not read, counted by extension, most numerous first. */
  unsupported: UnsupportedType[];
}

const NO_EXTENSION = 'no extension';

/**
 * Lines of one kind told (an include that leads nowhere, say) before the rest are only counted:
 * a corpus with 40,000 missing includes printed 40,000 lines (issue 40); the count comes at the
 * end of the walk.
 */
export const TOLD_PER_KIND = 10;

export class SkipLog {
  readonly files: SkippedFile[] = [];
  private readonly counts = new Map<string, number>();
  /** Lines told by kind, and those past TOLD_PER_KIND, not shown. */
  private readonly told = new Map<string, { shown: number; more: number }>();

  constructor(private readonly warn: (line: string) => void = () => {}) {}

  /** `note` follows the name in parentheses: `skipped kb/x.md (parse limit, remembered): …`. */
  skip(file: string, reason: SkipReason, why: string, note?: string): void {
    const line = `skipped ${file}${note === undefined ? '' : ` (${note})`}: ${why}`;
    this.files.push({ file, reason, line });
    this.warn(line);
  }

  /** A line about one file that is indexed, but not as written (as plain text, say): to the warnings, never counted. */
  note(line: string): void {
    this.warn(line);
  }

  /** A line for the build's log that leaves no file out (an include that leads nowhere); past TOLD_PER_KIND of its `kind`, counted. */
  tell(line: string, kind = line): void {
    const count = this.told.get(kind) ?? { shown: 0, more: 0 };
    this.told.set(kind, count);
    if (count.shown < TOLD_PER_KIND) {
      count.shown++;
      this.warn(line);
    } else count.more++;
  }

  /** A file of a type the indexer does not read (told by reportUnsupported). */
  unsupported(name: string): void {
    const extension = extname(name).toLowerCase() || NO_EXTENSION;
    this.counts.set(extension, (this.counts.get(extension) ?? 0) + 1);
  }

  /** Most numerous first. */
  get unsupportedTypes(): UnsupportedType[] {
    return [...this.counts]
      .map(([extension, count]) => ({ extension, count }))
      .sort((a, b) => b.count - a.count || a.extension.localeCompare(b.extension));
  }

  summary(): SkipSummary {
    return { leftOut: this.files, unsupported: this.unsupportedTypes };
  }

  /** The lines for the files of unsupported types and the count of lines not told, once the whole corpus has been walked. */
  reportUnsupported(): void {
    for (const [kind, { more }] of this.told)
      if (more > 0) this.warn(`… and ${more.toLocaleString('en-US')} more warnings like the above (${kind})`);
    const others: UnsupportedType[] = [];
    for (const type of this.unsupportedTypes) {
      const why = UNSUPPORTED_DOCUMENTS[type.extension];
      if (why === undefined) others.push(type);
      else this.warn(`skipped ${filesText(type.count)} of type ${type.extension}: ${why}`);
    }
    if (others.length === 0) return;
    const total = others.reduce((sum, t) => sum + t.count, 0);
    const list = others.map((t) => `${t.extension} (${t.count})`).join(', ');
    this.warn(`skipped ${filesText(total)} of unsupported types: ${list}`);
  }
}

const REASONS: Readonly<Record<SkipReason, string>> = {
  'unreadable-name': 'with a name that cannot be used',
  'symbolic-link': 'symbolic links',
  'not-regular-file': 'not regular files',
  'too-large': 'over the size limit',
  'parse-timeout': 'over the parse time limit',
  'parse-remembered': 'over the parse time limit in an earlier build',
  'parse-failure': 'that could not be read',
  'never-rendered': 'that their site never renders as pages (read where pages include them)',
};

/** The build report's line: how many files were left out and why, told by name in the log above it. */
export function skippedSummary(
  files: readonly SkippedFile[],
  unsupported: readonly UnsupportedType[],
): string | undefined {
  const counts = new Map<SkipReason, number>();
  for (const file of files) counts.set(file.reason, (counts.get(file.reason) ?? 0) + 1);
  const parts = [...counts].map(([reason, count]) => `${count} ${REASONS[reason]}`);
  const ofOtherTypes = unsupported.reduce((sum, t) => sum + t.count, 0);
  if (ofOtherTypes > 0) parts.push(`${ofOtherTypes} of types not read`);
  if (parts.length === 0) return undefined;
  return `skipped ${filesText(files.length + ofOtherTypes)} (named above): ${parts.join(', ')}`;
}

function filesText(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'file' : 'files'}`;
}

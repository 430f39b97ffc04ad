import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { currentBuildDir, readBuildSections } from '../index/read-index.js';
import { gapReport } from '../observe/gap-report.js';
import { gapReportText } from '../observe/gap-report-text.js';
import { queryStoreFiles } from '../observe/query-record.js';
import { readQueryRecords } from '../observe/query-store.js';
import { readingSettings } from '../settings/commands.js';
import { addSettingFlags } from '../settings/flags.js';
import type { Env } from '../settings/values.js';
import { age, positiveInt } from './flags.js';
import { indexHolds, readsLine } from './reads-line.js';

/**
 * `svc-docs report`: the docs-gap report from the searches a server recorded in an index folder
 * (its query store), with the index's pages for those never returned. Reads files only: it never
 * loads the server, and works while one runs.
 */

/** `report`'s own flags; the setting flags (--index, --corpus) are read by readingSettings. */
type ReportFlags = {
  since?: number;
  limit: number;
  json?: boolean;
};

const DEFAULT_SINCE = '7d';

export function addReportCommand(program: Command, env: Env): void {
  const command = program
    .command('report')
    .description('the docs-gap report: what assistants asked that the docs did not cover, weak answers, unread pages');
  addSettingFlags(command, 'report')
    .option('--since <age>', `searches of the last 30m, 12h, 7d, 2w … or all (default ${DEFAULT_SINCE})`, age)
    .option('--limit <n>', 'entries per list', positiveInt, 10)
    .option('--json', 'print the report as JSON')
    .action((flags: ReportFlags) => printReport(flags, env));
}

/** The index's pages as `<knowledge base>/<path>`; undefined when there is no readable index. */
async function indexPages(indexDir: string): Promise<string[] | undefined> {
  try {
    const buildDir = await currentBuildDir(indexDir);
    if (buildDir === undefined) return undefined;
    return (await readBuildSections(buildDir)).documents.map((d) => `${d.kb}/${d.path}`);
  } catch {
    return undefined;
  }
}

async function printReport(flags: ReportFlags, env: Env): Promise<void> {
  const settings = readingSettings('report', flags, env);
  const { indexDir } = settings;
  // First, which docs' searches; on stderr beside --json, whose stdout stays one JSON document.
  (flags.json ? console.error : console.log)(readsLine(settings, await indexHolds(indexDir)));
  const now = new Date();
  const window = flags.since ?? age(DEFAULT_SINCE);
  const since = Number.isFinite(window) ? new Date(now.getTime() - window) : undefined;
  const { current, previous } = queryStoreFiles(indexDir);
  if (!existsSync(current) && !existsSync(previous))
    console.error(
      `svc-docs: no searches recorded in ${indexDir} yet: a server serving this index records them (unless SVC_DOCS_QUERY_STORE=0)`,
    );
  const [records, pages] = await Promise.all([readQueryRecords(indexDir, since), indexPages(indexDir)]);
  const report = gapReport(records, { pages, limit: flags.limit, since, now });
  console.log(flags.json ? JSON.stringify(report, null, 2) : gapReportText(report));
}

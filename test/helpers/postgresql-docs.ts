import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Debian's PostgreSQL documentation export (package postgresql-doc-NN: 1,100+ DocBook HTML pages
 * under /usr/share/doc/postgresql-doc-NN/html), a real HTML docs site for tests. CI installs it
 * (scripts/ensure-postgresql-doc.sh); without it the tests that read it are skipped on a
 * developer's machine, and fail under CI=true.
 */

const DOC_ROOT = '/usr/share/doc';

/** The newest installed export's html folder, or undefined. */
export function postgresqlDocs(): string | undefined {
  let entries: string[];
  try {
    entries = readdirSync(DOC_ROOT);
  } catch {
    return undefined;
  }
  const versions = entries
    .filter((e) => /^postgresql-doc-\d+$/.test(e))
    .sort((a, b) => Number(b.split('-').at(-1)) - Number(a.split('-').at(-1)));
  return versions.map((v) => join(DOC_ROOT, v, 'html')).find((dir) => existsSync(join(dir, 'index.html')));
}

/** Whether tests that need the export skip (it is missing and this is not CI). */
export function skipWithoutPostgresqlDocs(): boolean {
  return postgresqlDocs() === undefined && process.env.CI !== 'true';
}

export const POSTGRESQL_DOCS_SKIPPED =
  'SKIPPED, the PostgreSQL docs export is not installed (scripts/ensure-postgresql-doc.sh installs it)';

/** The export's folder, for a test that runs only when it is there. */
export function requirePostgresqlDocs(): string {
  const dir = postgresqlDocs();
  if (dir === undefined)
    throw new Error(`no /usr/share/doc/postgresql-doc-*/html: run scripts/ensure-postgresql-doc.sh`);
  return dir;
}

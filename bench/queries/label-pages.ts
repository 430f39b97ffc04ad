import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';

/**
 * Where a labelled `doc` key's page is. A doc key is `<knowledge base>/<path>`, looked up as
 * `<corpus>/<key>` (a corpus folder whose sub-folders are knowledge bases) and, failing that, as
 * `<corpus>/<path>` when the knowledge base is the corpus folder itself
 * (`vitest/guide/cli.md` in `../shared/corpora/vitest`).
 */
export function docPath(corpusDir: string, doc: string): string | undefined {
  const direct = join(corpusDir, doc);
  if (existsSync(direct)) return direct;
  const kb = basename(corpusDir);
  if (doc.startsWith(`${kb}/`)) {
    const inside = join(corpusDir, doc.slice(kb.length + 1));
    if (existsSync(inside)) return inside;
  }
  return undefined;
}

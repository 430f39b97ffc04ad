import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/project-root.js';

/**
 * The shell blocks of a docs page that a test runs as written: each follows a comment
 * `<!-- <marker>: <name> … -->`, so the page cannot drift from what is tested.
 */
export function markedBlocks(page: string, marker: string): Map<string, string> {
  const text = readFileSync(join(projectRoot(), 'docs', page), 'utf8');
  const blocks = new Map<string, string>();
  const pattern = new RegExp(`<!-- ${marker}: ([\\w-]+)[^>]*-->\\n\`\`\`sh\\n([\\s\\S]*?)\\n\`\`\`\\n`, 'g');
  for (const [, name, code] of text.matchAll(pattern)) blocks.set(name!, code!);
  return blocks;
}

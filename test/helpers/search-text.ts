/**
 * The results a SearchDocs text names, read back from its result headers (src/mcp/render/render.ts):
 * how tests check an answer, which is text only.
 */

export interface NamedResult {
  title: string;
  source: string;
  path: string;
  /** The URL line, when the page's published address is known. */
  url?: string;
  /** The Relevance line's label, stars dropped. */
  relevance: string;
}

export function namedResults(text: string): NamedResult[] {
  return text
    .split(/^===== Result \d+ =====\n/m)
    .slice(1)
    .map((block) => {
      const line = (name: string) => new RegExp(`^${name}: (.*)$`, 'm').exec(block)?.[1];
      const url = line('URL');
      return {
        title: line('Title') ?? '',
        source: line('Source') ?? '',
        path: line('Path') ?? '',
        ...(url !== undefined && { url }),
        relevance: (line('Relevance') ?? '').replace(/^★+ /, ''),
      };
    });
}

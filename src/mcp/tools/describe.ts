import type { KnowledgeBaseProfile } from '../../index/corpus-profile.js';
import type { SearchEngine } from '../../search/types.js';
import { servedSummary } from './search-schema.js';

/**
 * The SearchDocs description, made from what is served: each knowledge base, what it covers and
 * words its docs use, then how to search it. Models pick their search words from this text, and
 * the gap between how a question is asked and how docs are written is the main reason a search
 * misses; so it says to search with the docs' own terms and to retry with other words.
 */

function describeKnowledgeBase(kb: KnowledgeBaseProfile): string {
  const parts = [`"${kb.name}" (${kb.pages} page${kb.pages === 1 ? '' : 's'}`];
  if (kb.areas.length > 0) parts.push(`; sections: ${kb.areas.join(', ')}`);
  parts.push(')');
  if (kb.topics.length > 0) parts.push(`, covering ${kb.topics.map((t) => `"${t}"`).join(', ')}`);
  if (kb.exampleTerms.length > 0)
    parts.push(`; its docs use terms such as ${kb.exampleTerms.map((t) => `\`${t}\``).join(', ')}`);
  return `- ${parts.join('')}`;
}

export function describeTool(engine: SearchEngine, maxResults: number): string {
  // While the index reloads there is no list; the guidance below is still useful without it.
  const kbs = servedSummary(engine)?.profiles ?? [];
  const served =
    kbs.length > 0
      ? `Searches these knowledge bases:\n${kbs.map(describeKnowledgeBase).join('\n')}\nTo search one of them only, pass its name as knowledgeBase (${kbs.map((kb) => `"${kb.name}"`).join(', ')}); without it all are searched.`
      : 'Searches the indexed documentation.';
  return [
    served,
    "Specific technical terms with context work best. Use the documentation's own words: name the API, option, field, header, " +
      'command or error message you expect the answer to mention, and add likely names for what you describe (e.g. "timeout" and ' +
      'the option that sets it). Identifiers are matched exactly and by their parts. Ask one question per call. If the results are ' +
      'weak (Moderate match, Somewhat relevant) or miss, search again with other words before concluding the docs do not cover it.',
    `Returns up to ${maxResults} pages, best first. Each result has Title, Source (knowledge base), Path, URL (the published page, to cite, when known), Relevance ` +
      '(strongest first: ★★★ Excellent match, ★★ Very relevant, ★ Relevant, Moderate match, Somewhat relevant) and Content: ' +
      'the best-matching section, marked ">>>>> BEST MATCH", with the sections of the page most likely to hold the answer, in ' +
      'page order (up to 31 consecutive ones when they fit), a "Not shown:" line naming the nearby sections left out by number ' +
      'and heading, and the URI of the whole page: search again with those headings, or read the page. A passage an earlier ' +
      'section already showed is not repeated: "[… see result 1, section 4]" points to it. When the documentation ' +
      'does not seem to cover a question, the answer says so in a few lines and names the closest pages. ' +
      '"No documentation matched" is a normal answer: rephrase.',
  ].join('\n\n');
}

import asciidoctorFactory from '@asciidoctor/core';
import type { Element, ElementContent, Root } from 'hast';
import { select } from 'hast-util-select';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { checkAttributeExpansion, MAX_ATTRIBUTE_VALUE } from './asciidoc-attributes.js';
import { oneLine } from './one-line.js';
import type { ConvertedDocument } from './converted.js';
import { hasClass } from './html-clean.js';
import { hastToMarkdown } from './html.js';

/**
 * AsciiDoc → Markdown through Asciidoctor.js (its HTML, then the HTML path): the document title
 * is the title and the first heading, sections keep their levels, listings keep their language,
 * admonitions become quotes that start with their label ("Note:"). Converted in Asciidoctor's
 * secure mode: no include is read, no file or URL is fetched; an include becomes a link.
 *
 * Asciidoctor.js (Opal) takes about 0.4 s to load: this module is loaded only when a build
 * meets its first AsciiDoc file (chunk-file.ts). Its version 4 converts asynchronously, and
 * chunking is synchronous under a time limit, so version 3 it is.
 */

const asciidoctor = asciidoctorFactory();
const fragmentParser = unified().use(rehypeParse, { fragment: true });

/** No table of contents: it repeats the headings that follow. Attributes set here override the page's entries. */
const OPTIONS = { safe: 'secure', attributes: { 'toc!': '', 'max-attribute-value-size': String(MAX_ATTRIBUTE_VALUE) } };

export function asciidocToMarkdown(source: string): ConvertedDocument {
  checkAttributeExpansion(source);
  const doc = asciidoctor.load(source, OPTIONS);
  const titleText = doc.getDocumentTitle({ sanitize: true });
  const title = typeof titleText === 'string' && titleText.trim() !== '' ? oneLine(titleText) : undefined;
  const tree = fragmentParser.parse(String(doc.convert()));
  const body = hastToMarkdown(admonitionsAsQuotes(tree));
  return { title, markdown: title === undefined ? `${body}\n` : `# ${title}\n\n${body}\n` };
}

/** `div.admonitionblock` lays a label and its text out as a table row: read as a quote that starts with the label. */
function admonitionsAsQuotes<T extends Root | Element>(node: T): T {
  const children = node.children.flatMap((child): ElementContent[] => {
    if (child.type === 'text') return [child];
    if (child.type !== 'element') return [];
    if (!hasClass(child, ['admonitionblock'])) return [admonitionsAsQuotes(child)];
    const label = select('.title', child) ?? select('.icon', child);
    const content = select('.content', child)?.children ?? [];
    const labelText: ElementContent[] = label ? [...label.children, { type: 'text', value: ':' }] : [];
    return [element('blockquote', [element('p', [element('strong', labelText)]), ...content])];
  });
  return { ...node, children };
}

function element(tagName: string, children: ElementContent[]): Element {
  return { type: 'element', tagName, properties: {}, children };
}

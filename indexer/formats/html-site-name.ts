import type { Element, Root } from 'hast';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { textOf } from './html-clean.js';
import { oneLine } from './one-line.js';

/*
 * Kept apart from html-page.ts (and its selector engine) because naming a corpus root reads its
 * index.html on every load, Markdown corpora included, which must not load the HTML page path.
 */

function elements(tree: Root): Element[] {
  const out: Element[] = [];
  visit(tree, 'element', (node: Element) => {
    out.push(node);
  });
  return out;
}

/**
 * The name a site's home page gives the site: its declared one (`og:site_name`, the
 * `application-name` meta tag), else its `<title>`: the whole of it ("PostgreSQL 15.18
 * Documentation"), or the part after its last separator, where generators put the site's name
 * ("Welcome — Project 1.0 documentation", "Hello | tRPC"). Undefined when it has none.
 */
export function htmlSiteName(source: string): string | undefined {
  const tree = unified().use(rehypeParse).parse(source);
  const named = (key: string, value: string) =>
    elements(tree).find((e) => e.tagName === 'meta' && e.properties[key] === value)?.properties.content;
  for (const content of [named('property', 'og:site_name'), named('name', 'application-name')])
    if (typeof content === 'string' && content.trim() !== '') return oneLine(content);
  const titleElement = elements(tree).find((e) => e.tagName === 'title');
  const title = titleElement ? oneLine(textOf(titleElement)) : '';
  const last = [...title.matchAll(SEPARATOR)].at(-1);
  const name = last === undefined ? title : title.slice(last.index + last[0].length).trim();
  return name === '' ? undefined : name;
}

/** What separates a page's name from its site's in a title: " | ", " — ", " - ", " · ", " :: ". */
export const SEPARATOR = /\s(?:[|—–·:-]|::)\s/g;

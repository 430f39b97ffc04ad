import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '../lib/random.js';
import type { MixSource, TemplatePage } from './scale-mix-source.js';

/**
 * The distinct scale corpus: pages recombined from the real corpora (scale-mix-source.ts), each
 * one its own. A page takes the shape of a real page (its sections' depths and block kinds), then
 * fills it with material drawn from all five corpora: a title and headings from the pools, every
 * prose block made of sentences resampled one by one across every page, code, lists and tables
 * drawn whole. Every page has a name of its own (three syllables, `Kavoti`) in its title, and
 * about half of the identifiers it mentions (`maxIdleConns`, `base_url`) carry that name
 * (`maxIdleConnsKavoti`), as the API reference of a large product names its own options: the
 * vocabulary grows with the corpus and no two pages are near-copies. What a docs site of a
 * hundred thousand pages looks like to an index, without its meaning; the real corpora are
 * indexed beside it, so the labelled queries still have their answers.
 */

export const MIX_KB = 'mixed-docs';

/** Share of a page's identifiers renamed after the page. */
const P_OWN_IDENTIFIER = 0.5;

const CONSONANTS = 'bdfgklmnprstvz';
const VOWELS = 'aeiou';
const SYLLABLES = CONSONANTS.length * VOWELS.length;
const syllable = (i: number) =>
  CONSONANTS[Math.floor(i / VOWELS.length) % CONSONANTS.length]! + VOWELS[i % VOWELS.length]!;

/** A page's own name, unique below 70³ pages, with no digit (so the tokenizer stems it as a word). */
export function pageName(page: number): string {
  const name =
    syllable(page % SYLLABLES) +
    syllable(Math.floor(page / SYLLABLES) % SYLLABLES) +
    syllable(Math.floor(page / SYLLABLES ** 2) % SYLLABLES);
  return name[0]!.toUpperCase() + name.slice(1);
}

/** camelCase and snake_case names: what a page's own options look like. */
const IDENTIFIER = /\b[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+\b|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g;

function hash(text: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h / 4294967296;
}

/** `text` with about half its identifiers (the same ones everywhere on the page) named after the page. */
export function ownIdentifiers(text: string, page: number): string {
  const name = pageName(page);
  return text.replace(IDENTIFIER, (id) => {
    if (hash(id, page) >= P_OWN_IDENTIFIER) return id;
    return id.includes('_') ? `${id}_${name.toLowerCase()}` : `${id}${name}`;
  });
}

const pick = <T>(list: readonly T[], random: () => number): T => list[Math.floor(random() * list.length)]!;

/** One page's Markdown on `template`'s shape, from the pools. */
export function mixedPage(source: MixSource, template: TemplatePage, page: number): string {
  const random = seededRandom(0x5eed + page);
  const lines = [`# ${pick(source.titles, random)} (${pageName(page)})`, ''];
  for (const [i, section] of template.sections.entries()) {
    if (section.depth > 1 || (section.depth === 1 && i > 0)) {
      lines.push(`${'#'.repeat(Math.max(2, section.depth))} ${pick(source.headings, random)}`, '');
    }
    for (const block of section.blocks) {
      if (block.kind === 'prose') {
        const sentences = Array.from({ length: block.sentences }, () => pick(source.sentences, random));
        lines.push(sentences.join(' '), '');
      } else {
        lines.push(pick(source.blocks[block.kind], random), '');
      }
    }
  }
  return ownIdentifiers(lines.join('\n'), page);
}

export interface MixWritten {
  documents: number;
  /** Sections the pages should chunk into (their templates' counts). */
  expectedSections: number;
}

/** Writes recombined pages into `outRoot/mixed-docs/<area>/` until they hold about `sections` sections. */
export function writeMixedPages(source: MixSource, outRoot: string, sections: number): MixWritten {
  const random = seededRandom(0x31415);
  const made = new Set<string>();
  let expected = 0;
  let page = 0;
  for (; expected < sections; page++) {
    const template = pick(source.pages, random);
    const dir = join(outRoot, MIX_KB, template.area);
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    writeFileSync(join(dir, `${pageName(page).toLowerCase()}.md`), mixedPage(source, template, page));
    expected += template.sections.length;
  }
  return { documents: page, expectedSections: expected };
}

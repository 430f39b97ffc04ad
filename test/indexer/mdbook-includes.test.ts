import { describe, expect, it } from 'vitest';
import { findIncludes } from '../../indexer/chunk/dialects/include-directives.js';
import { mdbookPart } from '../../indexer/chunk/dialects/mdbook-include.js';
import { chunkMarkdown, DEFAULT_CHUNK_OPTIONS } from '../../indexer/chunk/chunk.js';
import { loadCorpus } from '../../indexer/load/load-corpus.js';
import { writeCorpus } from '../helpers/index-fixture.js';

/**
 * An mdBook as its readers see it (the Rust book's layout): one knowledge base named by the
 * book, its pages from src/ only, and the listings beside src/ pulled into the code blocks that
 * include them (anchors, line ranges, anchor markers removed).
 */

const MAIN_RS = [
  'use std::io;',
  '// ANCHOR: here',
  'fn main() {',
  '    // ANCHOR: greet',
  '    println!("Guess the quokka!");',
  '    // ANCHOR_END: greet',
  '}',
  '// ANCHOR_END: here',
  '',
].join('\n');

const BOOK = {
  'src/SUMMARY.md': '# The Quokka Book\n\n- [Guessing](ch02.md)\n',
  'src/ch02.md': [
    '# Guessing',
    '',
    '<Listing number="2-1" file-name="src/main.rs" caption="Code that reads a quokka guess">',
    '',
    '```rust',
    '{{#rustdoc_include ../listings/ch02/src/main.rs:here}}',
    '```',
    '',
    '</Listing>',
    '',
    '```console',
    '{{#include ../listings/ch02/output.txt:2:3}}',
    '```',
    '',
    'Written as is: \\{{#include ../listings/ch02/output.txt}}',
    '',
  ].join('\n'),
  'listings/ch02/src/main.rs': MAIN_RS,
  'listings/ch02/output.txt': '$ cargo run\n   Compiling guessing v0.1.0\nGuess the quokka!\ntrailing line\n',
};

describe('mdBook', () => {
  it('finds includes inside fenced code, with anchors and line ranges, and keeps an escaped one', () => {
    const found = findIncludes(BOOK['src/ch02.md']);
    expect(found.map((d) => [d.kind, d.target, d.region, d.lines])).toEqual([
      ['mdbook', '../listings/ch02/src/main.rs', 'here', undefined],
      ['mdbook', '../listings/ch02/output.txt', undefined, { from: 2, to: 3 }],
    ]);
    expect(findIncludes('{{#include a.rs:4}}\n')[0]!.lines).toEqual({ from: 4, to: 4 });
    expect(findIncludes('{{#include a.rs::4}}\n')[0]!.lines).toEqual({ from: undefined, to: 4 });
    expect(findIncludes('{{#include a.rs:4:}}\n')[0]!.lines).toEqual({ from: 4, to: undefined });
  });

  it('shows an anchor without the marker lines of anchors inside it', () => {
    expect(mdbookPart(MAIN_RS, { region: 'here' })).toBe('fn main() {\n    println!("Guess the quokka!");\n}\n');
    expect(mdbookPart(MAIN_RS, {})).not.toContain('ANCHOR');
    expect(mdbookPart(MAIN_RS, { region: 'missing' })).toBe('');
  });

  it('is one knowledge base named by the book, with pages from src/ and listings inlined', () => {
    const docs = loadCorpus([writeCorpus(BOOK)], { warn: () => {} });
    expect(docs.map((d) => `${d.kb}/${d.path}`)).toEqual(['The Quokka Book/ch02.md']);
    const page = docs[0]!.source;
    const shown = chunkMarkdown(page, DEFAULT_CHUNK_OPTIONS)
      .sections.map((s) => s.text)
      .join('\n');
    expect(shown).toContain('Code that reads a quokka guess');
    expect(page).toContain('```rust\nfn main() {\n    println!("Guess the quokka!");\n}\n```');
    expect(page).toContain('```console\n   Compiling guessing v0.1.0\nGuess the quokka!\n```');
    expect(page).not.toContain('use std::io');
    expect(page).toContain('\\{{#include ../listings/ch02/output.txt}}');
  });
});

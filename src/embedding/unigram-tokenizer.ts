import * as tokenizers from '@huggingface/tokenizers';
import { ForgetfulMap } from '../forgetful-map.js';
import { HASH_START, hashStep, type PieceArrays, PieceTable } from './piece-table.js';
import { forEachRawWord, splitOnAdded, WordCache, type WordTokens } from './text-words.js';
import { record } from '../record.js';
import { addedTokens, preSequenceOf, sequenceOf, singleTemplate } from './tokenizer-json.js';

/**
 * The two classes used here, typed by hand: the package's own .d.ts files import each other
 * without file extensions, which TypeScript's NodeNext resolution does not follow.
 */
interface TokenizerClasses {
  SequenceNormalizer: new (config: unknown) => { normalize(text: string): string };
  SequencePreTokenizer: new (config: unknown) => { pre_tokenize(text: string): string[] };
}
const { SequenceNormalizer, SequencePreTokenizer } = tokenizers as unknown as TokenizerClasses;

/** Distinct pre-tokens whose pieces a tokenizer remembers: well under a megabyte of short strings. */
const SPLIT_CACHE_WORDS = 4096;

/** Everything a `UnigramTokenizer` holds, as plain data and typed arrays (no parsing to restore it). */
export interface UnigramParts {
  /** The vocabulary with its hash slots (as stored: PieceTable.arrays). */
  pieces: Required<PieceArrays>;
  /** By token id. */
  scores: Float64Array;
  unkId: number;
  unkScore: number;
  /** Longest vocabulary entry (UTF-16 units, at least its code points): no lattice node is longer. */
  maxPieceLength: number;
  /** The added (special) tokens' literal strings and ids. */
  added: [string, number][];
  /** tokenizer.json's normalizer and pre_tokenizer configs (null: none). */
  normalizer: unknown;
  preTokenizer: unknown;
  /** The single-sequence template: token ids around the text (`null` marks the text). */
  template: (number | null)[];
  maxTokens: number;
}

/**
 * A Unigram tokenizer that gives the token ids Transformers.js gives for the same tokenizer.json,
 * in a fraction of its memory and load time: the vocabulary is a `PieceTable` of flat arrays
 * instead of a character trie of objects (≈ 5 MB instead of ≈ 110 MB for the default model's
 * 150,000 words), which `parts` hands out for storing and `fromParts` takes back without parsing.
 *
 * The normaliser and pre-tokeniser are the `@huggingface/tokenizers` classes Transformers.js
 * itself runs, built from the same JSON; the rest is written here, step for step as
 * `@huggingface/tokenizers` 0.2 does it (`Tokenizer.encode_text`, `Unigram`, `TokenLattice.viterbi`,
 * `fuse_unk`, `TemplateProcessing`) plus Transformers.js's truncation to `model_max_length`.
 * `test/embedding/lookup-embedder.test.ts` checks both give the same ids on real corpora and
 * random text. Only the shapes the static model builder writes are accepted (`fromJson` returns
 * undefined otherwise), so any other tokenizer goes to Transformers.js.
 */
export class UnigramTokenizer {
  private readonly pieces: PieceTable;
  private readonly scores: Float64Array;
  /** The literal strings of the added (special) tokens, which split the raw text first. */
  private readonly addedTokens: ReadonlyMap<string, number>;
  /** Their strings, longest first (the order `splitOnAdded` tries them in). */
  private readonly addedContents: readonly string[];
  private readonly normalize: (text: string) => string;
  private readonly preTokenize: (text: string) => string[];
  /** The single-sequence template: token ids around the text (`null` marks the text). */
  private readonly template: readonly (number | null)[];
  /**
   * Recent pre-tokens' pieces: a word's split depends on the word alone, and the same words come
   * back in query after query (and all through a corpus), so each is split once while it stays here.
   */
  private readonly splits = new ForgetfulMap<readonly string[]>(SPLIT_CACHE_WORDS);
  /** Each raw word's pieces and ids (text-words.ts): most of a corpus's words are met many times. */
  private readonly words = new WordCache((word) => this.tokensOf(word));

  private constructor(readonly parts: UnigramParts) {
    this.pieces = PieceTable.fromArrays(parts.pieces);
    this.scores = parts.scores;
    this.addedTokens = new Map(parts.added);
    this.addedContents = [...this.addedTokens.keys()].sort((a, b) => b.length - a.length);
    this.template = parts.template;
    const normalizer = parts.normalizer === null ? undefined : new SequenceNormalizer(sequenceOf(parts.normalizer));
    const preTokenizer =
      parts.preTokenizer === null ? undefined : new SequencePreTokenizer(preSequenceOf(parts.preTokenizer));
    this.normalize = (text) => (normalizer ? normalizer.normalize(text) : text);
    this.preTokenize = (text) => (preTokenizer ? preTokenizer.pre_tokenize(text) : [text]);
  }

  /** A tokenizer from the parts another one gave (`parts`): what a model's compiled form stores. */
  static fromParts(parts: UnigramParts): UnigramTokenizer {
    return new UnigramTokenizer(parts);
  }

  /** undefined when tokenizer.json or its config use anything this class does not reproduce. */
  static fromJson(tokenizerJson: unknown, tokenizerConfig: unknown, maxTokens: number): UnigramTokenizer | undefined {
    const [json, config] = [record(tokenizerJson), record(tokenizerConfig)];
    if (!json || !config || config.remove_space === true || config.do_lowercase_and_remove_accent === true)
      return undefined;
    const model = record(json.model);
    if (model?.type !== 'Unigram' || model.byte_fallback === true) return undefined;
    if (!Array.isArray(model.vocab) || typeof model.unk_id !== 'number') return undefined;
    const added = addedTokens(json.added_tokens);
    if (added === undefined || json.truncation !== null || json.padding !== null) return undefined;
    const vocab = model.vocab as unknown[];
    const ids = new Map<string, number>();
    const scores = new Float64Array(vocab.length);
    let maxPieceLength = 1;
    for (let id = 0; id < vocab.length; id++) {
      const entry = vocab[id];
      if (!Array.isArray(entry) || typeof entry[0] !== 'string' || typeof entry[1] !== 'number') return undefined;
      ids.set(entry[0], id);
      scores[id] = entry[1];
      // UTF-16 length: never less than the code points, so the window is never too short.
      if (entry[0].length > maxPieceLength) maxPieceLength = entry[0].length;
    }
    for (const [content, id] of added) ids.set(content, id);
    let minScore = Number.POSITIVE_INFINITY;
    for (const score of scores) minScore = Math.min(minScore, score);
    const unkScore = minScore - 10;
    scores[model.unk_id] = unkScore;
    const template = singleTemplate(json.post_processor, added);
    if (template === undefined || json.normalizer === undefined || json.pre_tokenizer === undefined) return undefined;
    return new UnigramTokenizer({
      pieces: PieceTable.fromMap(ids).arrays,
      scores,
      unkId: model.unk_id,
      unkScore,
      maxPieceLength,
      added: [...added],
      normalizer: json.normalizer,
      preTokenizer: json.pre_tokenizer,
      template,
      maxTokens,
    });
  }

  /** Token ids of one text: template around it, cut to `maxTokens` (as Transformers.js truncates). */
  encode(text: string): number[] {
    const ids: number[] = [];
    for (const part of this.template) {
      if (part !== null) ids.push(part);
      else for (const id of this.encodeText(text)) ids.push(id);
    }
    if (ids.length > this.parts.maxTokens) ids.length = this.parts.maxTokens;
    return ids;
  }

  /**
   * `Tokenizer.encode_text`: added tokens split the raw text; each other part is normalised,
   * pre-tokenised and split, raw word by raw word (text-words.ts says why that is the same).
   */
  private encodeText(text: string): number[] {
    const ids: number[] = [];
    for (const section of splitOnAdded(text, this.addedContents)) {
      if (section.length === 0) continue;
      const added = this.addedTokens.get(section);
      if (added !== undefined) {
        ids.push(added);
        continue;
      }
      this.encodeWords(section, ids);
    }
    return ids;
  }

  /**
   * `fuse_unk` joins a run of unknown pieces, which goes on into the next word only when one word
   * ends and the next begins with one: words are fused apart (each as it is remembered) except there.
   */
  private encodeWords(text: string, ids: number[]): void {
    let run: WordTokens[] = [];
    const flush = () => {
      const fused = run.length === 1 ? run[0]!.ids : this.fuseUnknown(run.flatMap((word) => word.pieces));
      for (const id of fused) ids.push(id);
    };
    forEachRawWord(text, (raw) => {
      const word = this.words.get(raw);
      if (word.ids.length === 0) return;
      if (run.length > 0 && run.at(-1)!.unknownLast && word.unknownFirst) run.push(word);
      else {
        if (run.length > 0) flush();
        run = [word];
      }
    });
    if (run.length > 0) flush();
  }

  /** One raw word normalised, pre-tokenised and split, its runs of unknown pieces fused. */
  private tokensOf(raw: string): WordTokens {
    const normalized = this.normalize(raw);
    const pieces = normalized.length === 0 ? [] : this.preTokenize(normalized).flatMap((word) => this.piecesOf(word));
    const unknown = (piece: string | undefined) => piece !== undefined && this.idOf(piece) === this.parts.unkId;
    const unknownFirst = unknown(pieces[0]);
    const unknownLast = unknown(pieces.at(-1));
    // The pieces are needed again only to fuse a run across words: most words keep their ids alone.
    const kept = unknownFirst || unknownLast ? pieces : [];
    return { pieces: kept, ids: this.fuseUnknown(pieces), unknownFirst, unknownLast };
  }

  /** `splitWord`, remembered for the last few thousand distinct words (forgotten all at once when full). */
  private piecesOf(word: string): readonly string[] {
    return this.splits.get(word, (w) => this.splitWord(w));
  }

  /**
   * `TokenLattice.viterbi` over one pre-token, as a dynamic programme: each piece that starts at
   * `begin` extends the best path ending there. Ties keep the piece that begins first, as the
   * lattice does (it scans the pieces ending at a position in insertion order, with a strict `>`);
   * relaxing begins in ascending order gives the same order. A position where no vocabulary piece
   * of one character starts gets an unknown piece of one character (`Unigram.populate_nodes`).
   */
  private splitWord(word: string): string[] {
    const chars = Array.from(word);
    const n = chars.length;
    // Where each character starts in `word` (a character may be two UTF-16 units).
    const at = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) at[i + 1] = at[i]! + chars[i]!.length;
    const best = new Float64Array(n + 1);
    const from = new Int32Array(n + 1).fill(-1);
    from[0] = 0;
    for (let begin = 0; begin < n; begin++) {
      let hash = HASH_START;
      const longest = Math.min(n, begin + this.parts.maxPieceLength);
      for (let end = begin + 1; end <= longest; end++) {
        for (let k = at[end - 1]!; k < at[end]!; k++) hash = hashStep(hash, word.charCodeAt(k));
        const id = this.pieces.getHashed(hash, word, at[begin]!, at[end]!);
        const score =
          id !== undefined && id < this.scores.length
            ? this.scores[id]!
            : end === begin + 1
              ? this.parts.unkScore
              : undefined;
        if (score === undefined) continue;
        const total = best[begin]! + score;
        if (from[end] === -1 || total > best[end]!) {
          best[end] = total;
          from[end] = begin;
        }
      }
    }
    const pieces: string[] = [];
    for (let end = n; end > 0; end = from[end]!) pieces.push(word.slice(at[from[end]!]!, at[end]!));
    return pieces.reverse();
  }

  /** `fuse_unk`: a run of unknown pieces becomes one piece; then pieces become ids. */
  private fuseUnknown(pieces: string[]): number[] {
    const fused: string[] = [];
    let i = 0;
    while (i < pieces.length) {
      fused.push(pieces[i]!);
      if (this.idOf(pieces[i]!) !== this.parts.unkId) {
        i++;
        continue;
      }
      while (++i < pieces.length && this.idOf(pieces[i]!) === this.parts.unkId) {
        // As in the library: this test looks the piece up without the unknown-id fallback, so it
        // holds for every fused piece, and a fused run can spell a vocabulary word ("s" + "a").
        if (this.lookup(fused.at(-1)!) !== this.parts.unkId) fused[fused.length - 1] += pieces[i]!;
      }
    }
    return fused.map((piece) => this.idOf(piece));
  }

  private idOf(piece: string): number {
    return this.lookup(piece) ?? this.parts.unkId;
  }

  private lookup(piece: string): number | undefined {
    return this.addedTokens.get(piece) ?? this.pieces.get(piece);
  }
}

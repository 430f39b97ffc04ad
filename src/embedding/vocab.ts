/**
 * The vocabulary and tokenizer files of the static default model. Pure: a frequency-ordered word
 * list in, token lists and JSON text out.
 *
 * The tokenizer is BERT-style (BertNormalizer: lower case, no accents; BertPreTokenizer: split on
 * spaces and punctuation; [CLS] text [SEP]) with a Unigram model over the word vocabulary instead
 * of WordPiece. Unigram picks the most probable split of a word into vocabulary words (Viterbi),
 * so a joined identifier such as `entityeventsequence` becomes `entity event sequence`. WordPiece's
 * greedy longest match with `##` pieces gets it wrong (`entity ##events ##e ##que ##nc ##e`) as
 * soon as one word plus the next word's first letters is itself a word.
 */

export const PAD = '[PAD]';
export const UNK = '[UNK]';
export const CLS = '[CLS]';
export const SEP = '[SEP]';
/** Ids 0..3, in this order. */
export const SPECIAL_TOKENS = [PAD, UNK, CLS, SEP] as const;

export interface StaticVocab {
  /** Token strings; the index is the token id. */
  tokens: string[];
  /** For each token id, the index into the source word list, or -1 for a special token. */
  sourceIndex: Int32Array;
}

export function specialId(token: string): number {
  return (SPECIAL_TOKENS as readonly string[]).indexOf(token);
}

/**
 * The special tokens, then up to `maxWords` words the tokenizer can produce, most frequent first.
 * A word with accents or capitals is kept as the tokenizer will see it (`café` as `cafe`) unless
 * a more frequent word already has that form.
 */
export function buildVocab(words: readonly string[], maxWords: number): StaticVocab {
  const tokens: string[] = [...SPECIAL_TOKENS];
  const source: number[] = SPECIAL_TOKENS.map(() => -1);
  const seen = new Set<string>(tokens);
  for (let i = 0; i < words.length && tokens.length - SPECIAL_TOKENS.length < maxWords; i++) {
    const word = bertNormalize(words[i]!);
    if (seen.has(word) || !isPlainWord(word)) continue;
    seen.add(word);
    tokens.push(word);
    source.push(i);
  }
  return { tokens, sourceIndex: Int32Array.from(source) };
}

/**
 * Zipf's law from the frequency rank: p(r) = 1 / (r × H_n) for the word at index r - 1 of a list
 * of n words, H_n the n-th harmonic number, so the probabilities sum to 1.
 */
export function zipfProbability(n: number): (index: number) => number {
  let harmonic = 0;
  for (let r = 1; r <= n; r++) harmonic += 1 / r;
  return (index) => 1 / ((index + 1) * harmonic);
}

const PUNCTUATION = /[\p{P}\u0021-\u002F\u003A-\u0040\u005B-\u0060\u007B-\u007E]/u;
const CJK = /[\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF\u{20000}-\u{2FA1F}]/u;

/**
 * True when the BERT normaliser and pre-tokeniser can produce this word unchanged, so a vocabulary
 * entry for it can ever match: lower case without accents, no punctuation (the pre-tokeniser
 * splits there), no spaces or controls, no CJK inside a longer word (each CJK character is split off).
 */
function isPlainWord(word: string): boolean {
  const chars = [...word];
  if (chars.length === 0) return false;
  if (/[\s\p{C}]/u.test(word) || PUNCTUATION.test(word)) return false;
  if (chars.length > 1 && CJK.test(word)) return false;
  return word === bertNormalize(word);
}

/** What BertNormalizer (lowercase, strip_accents) does to a word. */
function bertNormalize(word: string): string {
  return word
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '');
}

interface TokenizerOptions {
  /** Unigram score of each token (log-probability); the specials' scores are ignored. */
  scores: ArrayLike<number>;
  /**
   * Letter/digit runs longer than this are dropped before tokenising: they are hashes, keys and
   * base64 blobs (JWTs in code samples), which would otherwise split into many meaningless words.
   */
  maxRunLength: number;
}

/** tokenizer.json in the Hugging Face `tokenizers` format, as Transformers.js reads it. */
export function tokenizerJson(tokens: readonly string[], options: TokenizerOptions): string {
  const special = (token: string) => ({ SpecialToken: { id: token, type_id: 0 } });
  const isSpecial = (i: number) => i < SPECIAL_TOKENS.length;
  const tokenizer = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((content, id) => ({
      id,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'Sequence',
      normalizers: [
        { type: 'Replace', pattern: { Regex: `[A-Za-z0-9]{${options.maxRunLength + 1},}` }, content: ' ' },
        { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
      ],
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [special(CLS), { Sequence: { id: 'A', type_id: 0 } }, special(SEP)],
      pair: [
        special(CLS),
        { Sequence: { id: 'A', type_id: 0 } },
        special(SEP),
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: SEP, type_id: 1 } },
      ],
      special_tokens: Object.fromEntries([CLS, SEP].map((t) => [t, { id: t, ids: [specialId(t)], tokens: [t] }])),
    },
    decoder: null,
    model: {
      type: 'Unigram',
      unk_id: specialId(UNK),
      byte_fallback: false,
      vocab: tokens.map((token, i) => [token, isSpecial(i) ? 0 : roundScore(options.scores[i]!)]),
    },
  };
  return JSON.stringify(tokenizer) + '\n';
}

/** Six decimals are plenty to rank splits and keep the file small and stable across platforms. */
function roundScore(score: number): number {
  if (!Number.isFinite(score)) throw new Error(`token score ${score} is not finite`);
  return Math.round(score * 1e6) / 1e6;
}

/** tokenizer_config.json: Transformers.js truncates every input to `maxTokens` (model_max_length). */
export function tokenizerConfigJson(maxTokens: number): string {
  const config = {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    model_max_length: maxTokens,
    pad_token: PAD,
    unk_token: UNK,
    cls_token: CLS,
    sep_token: SEP,
  };
  return JSON.stringify(config, null, 2) + '\n';
}

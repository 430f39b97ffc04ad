import { stemmer } from 'stemmer';
import { ForgetfulMap } from '../forgetful-map.js';
import { ownString } from '../own-string.js';

/**
 * The lexical tokenizer, shared by the indexer and the query side so both see the same terms.
 *
 * Docs are full of identifiers (`svc-account-id`, `entityEventSequence`,
 * `svc.v1.gift_card_initialized`, `/workflows/v1/events/report`). Each identifier is indexed
 * whole (an exact match is the strongest evidence there is) and in its parts (camelCase, snake,
 * dotted and hyphenated pieces), so a query may name either. Plain words are lower-cased and
 * Porter-stemmed; stop words are dropped.
 */

/** A run of letters/digits, possibly joined by identifier punctuation, e.g. `a.b-c/d_e`. */
const COMPOUND = /[\p{L}\p{N}_]+(?:[.\-/:@][\p{L}\p{N}_]+)*/gu;
const PART_SEPARATORS = /[.\-/:@_]+/;
/** camelCase and PascalCase boundaries: `entityEventSequence`, `HTTPServer` → `HTTP`, `Server`. */
const CAMEL_BOUNDARY = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;
const MAX_TOKEN_LENGTH = 64;

export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are as at be because been before being below between both but by
  can could did do does doing down during each few for from further had has have having he her here hers herself him himself
  his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours
  ourselves out over own same she should so some such than that the their theirs them themselves then there these they this
  those through to too under until up very was we were what when where which while who whom why will with would you your
  yours yourself yourselves i'm can't don't let get got want need use using used way also etc e.g i.e`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * Stems seen before: the Porter stemmer is pure, and docs and the renderer's passages repeat the
 * same words endlessly (stemming was about a quarter of a response's rendering with nothing
 * cached). Cleared whole when full, so memory stays bounded whatever the corpus.
 */
const STEMS = new ForgetfulMap<string>(100_000);

export function stem(word: string): string {
  if (word.length <= 3) return word;
  return STEMS.get(word, () => (/\d/.test(word) ? word : stemmer(word)));
}

function addPart(out: string[], part: string): void {
  const lower = part.toLowerCase();
  if (lower === '' || STOP_WORDS.has(lower)) return;
  out.push(stem(lower));
}

/**
 * Each identifier's terms, by the identifier as matched: the same identifiers and words come back
 * all through a corpus (tokenizing for BM25 was a sixth of a build's main-thread CPU). Cleared
 * whole when full, as STEMS is: full of long identifiers it holds some 10 MB of heap (99,000 took
 * 32 MB more than without it), which a server that tokenizes only queries seldom reaches.
 */
const COMPOUND_TERMS = new ForgetfulMap<readonly string[]>(32_768, ownString);

/** Terms of a text, in order, with repeats (term frequency matters to BM25). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(COMPOUND)) {
    const raw = match[0].slice(0, MAX_TOKEN_LENGTH * 4);
    for (const term of COMPOUND_TERMS.get(raw, compoundTerms)) out.push(term);
  }
  return out;
}

/** One matched identifier's terms: whole and joined forms when it has parts, then each part. */
function compoundTerms(raw: string): string[] {
  const out: string[] = [];
  const pieces = raw.split(PART_SEPARATORS).filter(Boolean);
  const parts = pieces.flatMap((p) => p.split(CAMEL_BOUNDARY));
  if (parts.length > 1) {
    // The identifier whole, unstemmed: `svc-account-id`, `entityeventsequence`.
    const whole = raw.toLowerCase().replace(/^[.\-/:@_]+|[.\-/:@_]+$/g, '');
    if (whole.length <= MAX_TOKEN_LENGTH) out.push(whole);
    // Its joined form too, so `entityEventSequence` also matches `entity_event_sequence`
    // (paths and dotted names have no such twin).
    if (!/[./:@]/.test(raw)) {
      const joined = parts.join('').toLowerCase();
      if (joined !== whole && joined.length <= MAX_TOKEN_LENGTH) out.push(joined);
    }
  }
  for (const part of parts) if (part.length <= MAX_TOKEN_LENGTH) addPart(out, part);
  return out;
}

/**
 * Markdown → the words a reader sees: link targets, image sources, HTML tags and emphasis marks
 * go, so `https` and `github` from URLs don't count as evidence.
 */
export function plainText(markdown: string): string {
  return markdown
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/<\/?[a-zA-Z][^>]*>/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ');
}

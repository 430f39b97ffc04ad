import { SvcDocsError } from '../errors.js';

/**
 * Every fitted number of what a response shows, in one frozen object: which results and passages
 * a response spends its budget on (src/mcp/render/), when a query counts as covered and when a
 * result earns a star. Tuning (bench/) passes a changed copy as an argument (`{ ...DEFAULT_PASSAGES,
 * field: value }`); nothing changes these defaults in place (they are frozen). Lives in search/ so
 * both the engine (stars) and the renderer (passages, coverage) read one object, arrows one way.
 */

export interface PassageOptions {
  /** Results below this confidence (other than the first) are left out. */
  readonly minConfidence: number;
  /** The first result's best section / any other section is clipped past this many characters. */
  readonly bestSectionChars: number;
  readonly sectionChars: number;
  /** A result's `Not shown:` outline, at most (outline.ts). */
  readonly outlineChars: number;

  /** Passages (passages.ts), when the windows do not fit. A block's score is its own query words (IDF-weighted share) plus: */
  /** × the share of the query its heading path holds. */
  readonly headingWeight: number;
  /** × its section's match of the query as the engine measured it (every spelling and rewrite). */
  readonly sectionWeight: number;
  /** × the best of its neighbours' own scores (the block before and after, same section). */
  readonly neighbourWeight: number;
  /** × the share of the page's best-matching section's distinctive terms it holds. */
  readonly bestTermsWeight: number;
  /** × the share of the words the page uses to define the query's words ("CDN" → "shared cache") it holds. */
  readonly definitionWeight: number;
  /** + nearBestWeight × nearBestDecay^distance, in sections, from the result's best match: the answer sits near it. */
  readonly nearBestWeight: number;
  readonly nearBestDecay: number;
  /** + this for a section's first passage: answers sit early in their sections. */
  readonly leadWeight: number;
  /** A block's value is its score × 1 / (1 + rankDecay × rank): lower results' passages count less, never by label. */
  readonly rankDecay: number;
  /** Value per character is computed on at least this many characters (a two-word line is not worth a paragraph). */
  readonly minBlockChars: number;
  /** Blocks of the first result reserved before any other choice, best first: its best blocks always get room. */
  readonly firstBlocks: number;
  /** Blocks scoring below this are shown only as context (after every scoring block). */
  readonly minBlockScore: number;

  /** Coverage (coverage.ts): the first result's discounted confidence at or above this is covered. */
  readonly coveredMin: number;
  /** A heading or title of at least this many distinct terms, all of them in the query, makes the query covered. */
  readonly namedHeadingTerms: number;
  /** Stars (relevance.ts): a starred result's best section holds more than this share of the query. */
  readonly starMinMatch: number;
}

export const DEFAULT_PASSAGES: PassageOptions = Object.freeze({
  minConfidence: 0.04,
  bestSectionChars: 4_800,
  sectionChars: 3_000,
  outlineChars: 160,

  headingWeight: 0.5,
  sectionWeight: 0.3,
  neighbourWeight: 0.3,
  bestTermsWeight: 0.2,
  definitionWeight: 0.4,
  nearBestWeight: 0.3,
  nearBestDecay: 0.6,
  leadWeight: 0.4,
  rankDecay: 0.2,
  minBlockChars: 200,
  firstBlocks: 3,
  minBlockScore: 0.05,

  coveredMin: 0.2,
  namedHeadingTerms: 2,
  starMinMatch: 0.6,
});

/** Options with `overrides` applied, checked to name only known fields (a typo in a tuning grid is an error). */
export function passageOptions(overrides: Partial<PassageOptions> = {}): PassageOptions {
  for (const key of Object.keys(overrides)) if (!(key in DEFAULT_PASSAGES)) throw new UnknownPassageOptionError(key);
  return Object.freeze({ ...DEFAULT_PASSAGES, ...overrides });
}

/** A tuning grid or caller named a field PassageOptions does not have. */
export class UnknownPassageOptionError extends SvcDocsError<'invalid_setting'> {
  override name = 'UnknownPassageOptionError';

  constructor(key: string) {
    super(
      'invalid_setting',
      `unknown passage option "${key}": expected one of ${Object.keys(DEFAULT_PASSAGES).join(', ')}`,
    );
  }
}

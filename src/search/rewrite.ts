import { STOP_WORDS, stem } from '../index/tokenize.js';

/**
 * Rewrites that bridge how people ask to how docs are written, without a model: the spelling
 * variants of one word that keyword search otherwise treats as unrelated. Each adds a term only
 * when the corpus has it, at a weight below the user's own words, so a rewrite can only bring in
 * evidence, never outweigh what was typed.
 *
 * - Compounds written apart: "back up" → `backup`, "logged in" → `login`, "roll back" → `rollback`,
 *   "add on" → `addon`, "name space" → `namespace`. Docs write them closed, people often don't.
 * - Abbreviations, both ways: "administrator" ↔ `admin`, "repository" ↔ `repo`,
 *   "configuration" ↔ `config`, "synchronise" ↔ `sync`. Only the abbreviations of software
 *   writing in general; nothing specific to one product.
 */

export const REWRITE_WEIGHT = 0.8;

/** Full word → its common abbreviations in software docs (British and American spellings). */
const ABBREVIATIONS: Record<string, string[]> = {
  administrator: ['admin'],
  administration: ['admin'],
  application: ['app'],
  applications: ['apps'],
  argument: ['arg'],
  arguments: ['args'],
  authentication: ['auth', 'authn'],
  authorization: ['auth', 'authz'],
  authorisation: ['auth', 'authz'],
  certificate: ['cert'],
  certificates: ['certs'],
  configuration: ['config', 'conf'],
  configure: ['config'],
  credentials: ['creds'],
  database: ['db'],
  databases: ['dbs'],
  debugging: ['debug'],
  dependency: ['dep'],
  dependencies: ['deps'],
  development: ['dev'],
  directory: ['dir'],
  directories: ['dirs'],
  documentation: ['docs'],
  environment: ['env'],
  environments: ['envs'],
  executable: ['exe'],
  information: ['info'],
  kubernetes: ['k8s', 'kube'],
  library: ['lib'],
  libraries: ['libs'],
  maximum: ['max'],
  message: ['msg'],
  minimum: ['min'],
  organization: ['org'],
  organisation: ['org'],
  parameter: ['param'],
  parameters: ['params'],
  password: ['passwd', 'pwd'],
  production: ['prod'],
  repository: ['repo'],
  repositories: ['repos'],
  specification: ['spec'],
  statistics: ['stats'],
  synchronize: ['sync'],
  synchronise: ['sync'],
  synchronization: ['sync'],
  synchronisation: ['sync'],
  synchronizing: ['sync', 'syncing'],
  synchronising: ['sync', 'syncing'],
  synchronized: ['synced'],
  synchronised: ['synced'],
  temporary: ['temp', 'tmp'],
  utilities: ['utils'],
  utility: ['util'],
  variable: ['var'],
  variables: ['vars'],
};

/** Abbreviation → full words, the table read backwards. */
const EXPANSIONS: Record<string, string[]> = {};
for (const [full, shorts] of Object.entries(ABBREVIATIONS)) {
  for (const short of shorts) (EXPANSIONS[short] ??= []).push(full);
}

/** Shortest joined pair worth looking up: `setup`, `login`; not `isit` from "is it". */
const MIN_COMPOUND_LENGTH = 5;
const MAX_WORDS = 40;
/** Particles that close phrasal compounds: "back up", "log in", "roll out", "add on", "set off". */
const PARTICLES = new Set(['up', 'in', 'out', 'on', 'off', 'down', 'over', 'back']);

function joinable(word: string, next: string): boolean {
  if (word.length + next.length < MIN_COMPOUND_LENGTH || /\d/.test(word + next)) return false;
  return !STOP_WORDS.has(word) && PARTICLES.has(next);
}

interface Rewrites {
  /** Compounds the query wrote apart, by term, at REWRITE_WEIGHT. */
  terms: Map<string, number>;
  /** Other spellings of the query's own terms (abbreviations both ways), scored as those terms. */
  variants: Map<string, string[]>;
}

/**
 * What a search text rewrites to, given its own terms (`own`, from the tokenizer) and what the
 * index holds (`hasTerm`): nothing is added that the corpus lacks or the query already has.
 */
export function rewriteQuery(
  text: string,
  own: ReadonlyMap<string, number>,
  hasTerm: (term: string) => boolean,
): Rewrites {
  const terms = new Map<string, number>();
  const variants = new Map<string, string[]>();
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, MAX_WORDS);
  words.forEach((word, i) => {
    const base = stem(word);
    if (own.has(base)) {
      const spellings = [...lookup(ABBREVIATIONS, word), ...lookup(EXPANSIONS, word)]
        .map(stem)
        .filter((t) => t !== base && !own.has(t) && hasTerm(t));
      if (spellings.length > 0) variants.set(base, [...new Set([...(variants.get(base) ?? []), ...spellings])]);
    }
    const next = words[i + 1];
    if (next !== undefined && joinable(word, next)) {
      // "timed out" and "logged in" close up from the verb's stem: `timeout`, `login`.
      for (const compound of new Set([stem(word + next), stem(base + next)])) {
        if (!own.has(compound) && hasTerm(compound)) terms.set(compound, REWRITE_WEIGHT);
      }
    }
  });
  return { terms, variants };
}

function lookup(table: Record<string, string[]>, word: string): string[] {
  return Object.hasOwn(table, word) ? table[word]! : [];
}

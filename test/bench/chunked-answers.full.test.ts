import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusOf, lostAnswers } from '../../bench/queries/chunked-answers.js';
import { projectRoot } from '../../src/project-root.js';

/**
 * Cleaning a page for its readers keeps what the labelled sets call the answer: every grade-2
 * answer phrase found in a page as written is still in its chunked text. (A label is a fact
 * about its page, not a setting chosen on it, so every query of every set is checked.) A set
 * whose corpus is missing is skipped with a line saying so, except under CI.
 */

const QUERIES = join(projectRoot(), 'bench', 'queries');
const SETS = readdirSync(QUERIES).filter((f) => f.endsWith('.json'));

describe('answer phrases after cleaning', () => {
  for (const set of SETS) {
    const file = join(QUERIES, set);
    const present = existsSync(corpusOf(file));
    if (!present) {
      if (process.env.CI === 'true') throw new Error(`${corpusOf(file)} is missing: CI has ../shared/corpora`);
      console.log(`chunked-answers: skipping ${set}, ${corpusOf(file)} is not there`);
    }
    it.skipIf(!present)(`keeps every grade-2 phrase of ${set}`, { timeout: 60_000 }, async () => {
      expect(await lostAnswers(file)).toEqual([]);
    });
  }
});

import { describe, expect, it } from 'vitest';
import { openEngine } from '../../src/search/engine.js';
import { fixtureIndex } from '../helpers/index-fixture.js';
import { stem, tokenize } from '../../src/index/tokenize.js';
import { REWRITE_WEIGHT, rewriteQuery } from '../../src/search/rewrite.js';

const own = (text: string) => new Map(tokenize(text).map((t) => [t, 1]));
const corpus = (...words: string[]) => {
  const terms = new Set(words.map(stem));
  return (t: string) => terms.has(t);
};

describe('rewriteQuery', () => {
  it('joins a word and its particle into the compound the docs write closed', () => {
    const text = 'back up the settings and log in again';
    const r = rewriteQuery(text, own(text), corpus('backup', 'login', 'settings'));
    expect([...r.terms]).toEqual([
      [stem('backup'), REWRITE_WEIGHT],
      [stem('login'), REWRITE_WEIGHT],
    ]);
  });

  it('joins an inflected verb from its stem: "timed out" finds `timeout`, "logged in" finds `login`', () => {
    const text = 'the request timed out after I logged in';
    const r = rewriteQuery(text, own(text), corpus('timeout', 'login'));
    expect([...r.terms.keys()].sort()).toEqual([stem('login'), stem('timeout')].sort());
  });

  it('joins nothing the corpus lacks, and no noun pairs (those are matched by their parts)', () => {
    const text = 'service account back up';
    expect(rewriteQuery(text, own(text), corpus('serviceaccount')).terms.size).toBe(0);
  });

  it('gives abbreviations both ways as variants of the word typed, when the corpus has them', () => {
    const text = 'reset the administrator password of the repo';
    const r = rewriteQuery(text, own(text), corpus('admin', 'repository', 'passwd'));
    expect(r.variants.get(stem('administrator'))).toEqual(['admin']);
    expect(r.variants.get('repo')).toEqual([stem('repository')]);
    expect(r.variants.get(stem('password'))).toEqual(['passwd']);
    expect(r.terms.size).toBe(0);
  });

  it('adds no variant the query already has, and reads inherited object keys as plain words', () => {
    const text = 'admin administrator constructor toString __proto__';
    const r = rewriteQuery(text, own(text), () => true);
    expect(r.variants.has(stem('administrator'))).toBe(false);
    expect(r.variants.has('admin')).toBe(false);
    expect(r.variants.has('constructor')).toBe(false);
  });
});

describe('query rewrites in the engine, as shipped', () => {
  it('finds a page that writes the abbreviation or the closed compound the question spells out', async () => {
    const dir = await fixtureIndex({
      'kb/access.md': '# Access\n\n## Reset the admin password\n\nThe admin account password is reset with the CLI.\n',
      'kb/backup.md': '# Backup\n\n## Take a backup\n\nA backup copies every setting.\n',
      'kb/other.md': '# Other\n\n## Account settings\n\nEvery account has settings and a password policy.\n',
    });
    const engine = await openEngine(dir);
    try {
      expect((await engine.search('reset the administrator password'))[0]!.path).toBe('access.md');
      expect((await engine.search('back up every setting'))[0]!.path).toBe('backup.md');
    } finally {
      await engine.close();
    }
  });
});

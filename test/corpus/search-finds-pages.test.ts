import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadQuerySet, splitHalf } from '../../bench/queries.js';
import { projectRoot } from '../../src/project-root.js';
import { openEngine, type LoadedEngine } from '../../src/search/engine.js';
import { bundledIndex } from '../helpers/index-fixture.js';

/**
 * The bundled corpus's labelled queries (bench/queries/svc.json) through the real engine on the
 * real bundled index: a search for a page's key facts (keywords, identifiers, symptoms) finds a
 * page that answers it first; a question in other words finds one among the first five. Only the
 * tuning half: a failing test invites a ranking change, and held-out queries must never shape one.
 */
const set = splitHalf(loadQuerySet(join(projectRoot(), 'bench', 'queries', 'svc.json')), 'tuning');
let engine: LoadedEngine;

beforeAll(async () => {
  engine = await openEngine(bundledIndex());
});
afterAll(async () => engine?.close());

describe('the bundled corpus answers its labelled queries', () => {
  const facts = set.queries.filter((q) => q.style !== 'paraphrase');
  it.each(facts.map((q) => [q.id, q] as const))('%s: the answering page comes first', async (_id, q) => {
    const [top] = await engine.search(q.query);
    const answering = q.relevant.filter((r) => r.grade === 2).map((r) => r.doc);
    expect(answering).toContain(top && `${top.source}/${top.path}`);
  });

  const paraphrases = set.queries.filter((q) => q.style === 'paraphrase');
  it.each(paraphrases.map((q) => [q.id, q] as const))('%s: a relevant page is among the first five', async (_id, q) => {
    const results = await engine.search(q.query, { limit: 5 });
    const relevant = q.relevant.map((r) => r.doc);
    expect(results.map((r) => `${r.source}/${r.path}`).some((d) => relevant.includes(d))).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { readIndex } from '../../src/index/open-index.js';
import { SectionCache } from '../../src/index/section-cache.js';
import { SectionStore } from '../../src/index/section-store.js';
import { fixtureIndex } from '../helpers/index-fixture.js';

const files = {
  'kb/a.md': '# Alpha\nalpha text about refunds\n## Details\nmore alpha\n## More\nthird alpha section\n',
  'kb/b.md': '# Beta\nbeta text about webhooks\n',
};

describe('a section store keeps what it read', () => {
  it('returns the sections it read before, the same objects, with what the file holds', async () => {
    const index = await readIndex(await fixtureIndex(files));
    const first = index.sections.slice(0, 3);
    const again = index.sections.slice(0, 3);
    expect(again.map((s) => s.text)).toEqual(first.map((s) => s.text));
    again.forEach((s, i) => expect(s).toBe(first[i]));
    // A part of a run read before, and a run partly read before: the kept sections are reused.
    expect(index.sections.slice(1, 2)[0]).toBe(first[1]);
    const wider = index.sections.slice(0, index.sections.length);
    expect(wider.slice(0, 3).map((s) => s.text)).toEqual(first.map((s) => s.text));
    expect(wider.map((s) => s.text).join('\n')).toContain('beta text about webhooks');
    index.sections.close();
  });

  it('keeps no more text than its bound, reading again what it let go', async () => {
    const index = await readIndex(await fixtureIndex(files));
    const small = new SectionStore(index.sections.parts, 1);
    const first = small.slice(0, 2);
    const again = small.slice(0, 2);
    expect(again.map((s) => s.text)).toEqual(first.map((s) => s.text));
    expect(again[0]).not.toBe(first[0]);
    small.close();
    index.sections.close();
  });
});

describe('SectionCache', () => {
  const section = (text: string) => ({ doc: 0, headings: [], text, role: 'content' as const });

  it('lets the oldest go first when the text it holds passes its bound', () => {
    const cache = new SectionCache(10);
    cache.set(0, section('aaaa'));
    cache.set(1, section('bbbb'));
    cache.set(2, section('cccc'));
    expect(cache.get(0)).toBeUndefined();
    expect(cache.get(1)?.text).toBe('bbbb');
    expect(cache.size()).toEqual({ entries: 2, chars: 8 });
    cache.set(1, section('bb'));
    expect(cache.size()).toEqual({ entries: 2, chars: 6 });
    cache.set(3, section('x'.repeat(11)));
    expect(cache.get(3)).toBeUndefined();
  });
});

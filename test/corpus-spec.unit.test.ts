import { describe, expect, it } from 'vitest';
import {
  CorpusSpecError,
  corpusKey,
  displayUrl,
  parseCorpusSpec,
  repositoryName,
  specText,
} from '../src/corpus-spec.js';

/** `--corpus` entries: folders as they are, `git+<url>[#<branch>][:<subfolder>]` in every URL form git takes. Pure. */

function git(url: string, branch?: string, subfolder?: string) {
  return { kind: 'git', url, branch, subfolder };
}

describe('parseCorpusSpec', () => {
  it('keeps a folder as written', () => {
    expect(parseCorpusSpec('./docs')).toEqual({ kind: 'folder', path: './docs' });
    expect(parseCorpusSpec('/srv/a:b#c')).toEqual({ kind: 'folder', path: '/srv/a:b#c' });
  });

  it("tells a subfolder's colon from the URL's own, in every URL form", () => {
    const cases: [string, ReturnType<typeof git>][] = [
      ['git+https://github.com/argoproj/argo-cd.git', git('https://github.com/argoproj/argo-cd.git')],
      [
        'git+https://git.example.com:8443/docs.git:docs',
        git('https://git.example.com:8443/docs.git', undefined, 'docs'),
      ],
      ['git+https://github.com/o/r.git#master:docs/en', git('https://github.com/o/r.git', 'master', 'docs/en')],
      ['git+file:///srv/repos/docs.git', git('file:///srv/repos/docs.git')],
      ['git+file:///srv/repos/docs.git:site/docs/', git('file:///srv/repos/docs.git', undefined, 'site/docs')],
      ['git+ssh://git@host:2222/team/docs.git#release/1.2', git('ssh://git@host:2222/team/docs.git', 'release/1.2')],
      ['git+git@github.com:team/docs.git', git('git@github.com:team/docs.git')],
      ['git+git@github.com:team/docs.git:www/docs', git('git@github.com:team/docs.git', undefined, 'www/docs')],
      ['git+git@github.com:team/docs.git#:docs', git('git@github.com:team/docs.git', undefined, 'docs')],
      ['git+/srv/repos/docs.git#main', git('/srv/repos/docs.git', 'main')],
      ['git+../docs.git:guide', git('../docs.git', undefined, 'guide')],
    ];
    for (const [text, spec] of cases) expect(parseCorpusSpec(text), text).toEqual(spec);
  });

  it('refuses credentials in the URL without repeating them', () => {
    for (const text of [
      'git+https://alice:hunter2@git.example.com/docs.git',
      'git+https://ghp_abcdef0123456789@github.com/o/r.git#main',
      'git+http://token@git.internal/docs.git',
      'git+ssh://deploy:hunter2@git.example.com/docs.git',
    ]) {
      let error: unknown;
      try {
        parseCorpusSpec(text);
      } catch (e) {
        error = e;
      }
      expect(error, text).toBeInstanceOf(CorpusSpecError);
      expect(error).toMatchObject({ code: 'invalid_corpus', reason: 'credentials' });
      expect((error as Error).message).toMatch(/^git\+\S+\*\*\*@\S+: the URL carries credentials.*credential helper/);
      expect((error as Error).message).not.toMatch(/hunter2|ghp_|alice|token@|deploy/);
    }
    // An ssh user name is not a secret.
    expect(parseCorpusSpec('git+ssh://git@github.com/o/r.git')).toEqual(git('ssh://git@github.com/o/r.git'));
  });

  it('refuses what git would read as an option, and names outside the repository', () => {
    const refused: [string, string][] = [
      ['git+', 'bad-url'],
      ['git+--upload-pack=sh', 'bad-url'],
      ['git+https://h/a b.git', 'bad-url'],
      ['git+https://h/r.git#-x', 'bad-branch'],
      ['git+https://h/r.git#a..b', 'bad-branch'],
      ['git+https://h/r.git#main:../../etc', 'bad-subfolder'],
      ['git+https://h/r.git#main:docs/./x', 'bad-subfolder'],
    ];
    for (const [text, code] of refused) {
      expect(() => parseCorpusSpec(text), text).toThrow(CorpusSpecError);
      try {
        parseCorpusSpec(text);
      } catch (error) {
        expect((error as CorpusSpecError).reason, text).toBe(code);
      }
    }
  });
});

describe('naming a git corpus', () => {
  it("reads the repository's name off its URL", () => {
    expect(repositoryName('https://github.com/argoproj/argo-cd.git')).toBe('argo-cd');
    expect(repositoryName('git@github.com:team/handbook')).toBe('handbook');
    expect(repositoryName('file:///srv/docs.git/')).toBe('docs');
  });

  it('gives each URL, branch and subfolder a stable folder key of its own', () => {
    const key = (text: string) => corpusKey(parseCorpusSpec(text));
    expect(key('git+https://github.com/o/Argo-CD.git#main')).toMatch(/^argo-cd-[0-9a-f]{12}$/);
    expect(key('git+https://github.com/o/r.git#main:docs')).toBe(key('git+https://github.com/o/r.git#main:docs/'));
    const keys = new Set(
      [
        'git+https://github.com/o/r.git',
        'git+https://github.com/o/r.git#main',
        'git+https://github.com/o/r.git#main:docs',
        'git+https://github.com/p/r.git',
        '/srv/r',
      ].map(key),
    );
    expect(keys.size).toBe(5);
    expect(key('/srv/docs')).toMatch(/^docs-[0-9a-f]{12}$/);
  });

  it('writes a spec back for messages, hiding any user name', () => {
    expect(specText(parseCorpusSpec('git+git@h:o/r.git#:docs'))).toBe('git+***@h:o/r.git#:docs');
    expect(specText(parseCorpusSpec('git+file:///r.git#dev:a/b'))).toBe('git+file:///r.git#dev:a/b');
    expect(displayUrl('https://a:b@h/x')).toBe('https://***@h/x');
  });
});

describe('a website corpus', () => {
  it('is an http(s) URL, its fragment dropped, credentials refused, keyed by its URL', () => {
    expect(parseCorpusSpec('https://docs.example.com/guide/#top')).toEqual({
      kind: 'web',
      url: 'https://docs.example.com/guide/',
    });
    expect(() => parseCorpusSpec('https://me:secret@docs.example.com/')).toThrow(/carries credentials/);
    expect(() => parseCorpusSpec('https://me:secret@docs.example.com/')).not.toThrow(/secret/);
    const key = corpusKey(parseCorpusSpec('https://docs.example.com/guide/'));
    expect(key).toMatch(/^docs\.example\.com-[0-9a-f]{12}$/);
    expect(corpusKey(parseCorpusSpec('https://docs.example.com/other/'))).not.toBe(key);
  });
});

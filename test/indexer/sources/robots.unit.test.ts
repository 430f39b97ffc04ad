import { describe, expect, it } from 'vitest';
import { parseRobots } from '../../../indexer/sources/robots.js';
import { fileFor, startFolder, underStart } from '../../../indexer/sources/web-mirror.js';

describe('robots.txt', () => {
  it("takes our group, else *'s; the longest rule wins, Allow on a tie; wildcards and $", () => {
    const robots = parseRobots(
      [
        'User-agent: otherbot',
        'Disallow: /',
        '',
        'User-agent: *',
        'Disallow: /private/',
        'Allow: /private/open.html',
        'Disallow: /*.pdf$',
        'Sitemap: https://docs.example.com/sitemap.xml',
      ].join('\n'),
    );
    expect(robots.allowed('/guide/a.html')).toBe(true);
    expect(robots.allowed('/private/x.html')).toBe(false);
    expect(robots.allowed('/private/open.html')).toBe(true);
    expect(robots.allowed('/files/a.pdf')).toBe(false);
    expect(robots.allowed('/files/a.pdf.html')).toBe(true);
    expect(robots.sitemaps).toEqual(['https://docs.example.com/sitemap.xml']);
    expect(parseRobots('User-agent: svc-docs\nDisallow: /\n\nUser-agent: *\nDisallow:\n').allowed('/a')).toBe(false);
    expect(parseRobots('').allowed('/anything')).toBe(true);
  });
});

describe('a crawled page as a file', () => {
  const folder = startFolder(new URL('https://docs.example.com/guide/start.html?x=1'));

  it('reads pages below the start folder, same origin, without queries', () => {
    expect(folder.href).toBe('https://docs.example.com/guide/');
    expect(underStart(new URL('https://docs.example.com/guide/a/b.html'), folder)).toBe(true);
    expect(underStart(new URL('https://docs.example.com/other/'), folder)).toBe(false);
    expect(underStart(new URL('https://evil.example/guide/'), folder)).toBe(false);
    expect(underStart(new URL('https://docs.example.com/guide/a?page=2'), folder)).toBe(false);
  });

  it('keeps a page at its path: a folder URL as index.html, an HTML page without extension as .html', () => {
    const file = (path: string, type = 'text/html') => fileFor(new URL(path, folder), folder, type);
    expect(file('')).toBe('index.html');
    expect(file('setup/')).toBe('setup/index.html');
    expect(file('setup')).toBe('setup.html');
    expect(file('setup.html')).toBe('setup.html');
    expect(file('notes.md', 'text/markdown')).toBe('notes.md');
    expect(file('caf%C3%A9.html')).toBe('café.html');
    expect(file('a%2Fb.html')).toBeUndefined();
  });
});

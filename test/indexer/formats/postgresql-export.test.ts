import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { htmlPage } from '../../../indexer/formats/html-page.js';
import { knowledgeBase } from '../../../indexer/load/knowledge-base.js';
import {
  POSTGRESQL_DOCS_SKIPPED,
  requirePostgresqlDocs,
  skipWithoutPostgresqlDocs,
} from '../../helpers/postgresql-docs.js';

/**
 * A real HTML docs export read as its readers see it: every page of Debian's PostgreSQL docs
 * (DocBook output) without its navigation tables or empty links, and the knowledge base named
 * from the site's home page rather than its folder ("html").
 */

const skip = skipWithoutPostgresqlDocs();

describe.skipIf(skip)(
  skip ? `the PostgreSQL docs export: ${POSTGRESQL_DOCS_SKIPPED}` : 'the PostgreSQL docs export',
  () => {
    it('reads a tenth of its pages without navigation tables, Prev / Next links or empty links', () => {
      const dir = requirePostgresqlDocs();
      const all = readdirSync(dir).filter((f) => f.endsWith('.html'));
      expect(all.length).toBeGreaterThan(1000);
      // Every tenth page (all of them take minutes on a busy machine): each kind of DocBook page is among them.
      const pages = all.filter((_, i) => i % 10 === 0);
      const leaks: string[] = [];
      for (const file of pages) {
        const { title, markdown } = htmlPage(readFileSync(join(dir, file), 'utf8'));
        if (title === undefined) leaks.push(`${file}: no title`);
        if (markdown.includes('[]()')) leaks.push(`${file}: an empty link`);
        if (/\[(Prev|Next|Up|Home)\]\(/.test(markdown)) leaks.push(`${file}: a navigation link`);
        if (/^\| .*\|$/m.test(markdown) && /accesskey|Navigation/.test(markdown))
          leaks.push(`${file}: a navigation table`);
      }
      expect(leaks).toEqual([]);
    });

    it('keeps the content: the GRANT page has its synopsis and its description', () => {
      const { title, markdown } = htmlPage(readFileSync(join(requirePostgresqlDocs(), 'sql-grant.html'), 'utf8'));
      expect(title).toBe('GRANT');
      expect(markdown).toMatch(/^## GRANT\n\nGRANT — define access privileges\n\n## Synopsis\n/);
      expect(markdown).toContain('ALL TABLES IN SCHEMA');
      expect(markdown).toContain('## Description');
    });

    it("names the knowledge base from the home page's title, not the folder", () => {
      const dir = requirePostgresqlDocs();
      expect(knowledgeBase(dir, { dir }).name).toMatch(/^PostgreSQL \d+(\.\d+)* Documentation$/);
    });
  },
);

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, findChromium, launchChromium } from '../../bench/lib/chromium.js';
import { parseServerOptions } from '../../src/settings/server-options.js';
import { openEngine } from '../../src/search/engine.js';
import { type RunningDocsServer, serve } from '../../src/serve/serve.js';
import { fixtureIndex } from '../helpers/index-fixture.js';
import { connectV2, MODERN_VERSION } from '../helpers/mcp-client.js';
import { SAMPLE_CORPUS } from '../helpers/sample-corpus.js';
import { useServedEngine } from '../helpers/served-engine.js';

/**
 * The search page in a real browser (headless Chromium): a search typed into the page, with
 * JavaScript off, shows results and their labels, also at phone width; a corpus page carrying
 * scripts and event handlers runs none of them, under the page's policy and, with the policy
 * bypassed, thanks to the sanitiser alone; and a question asked over MCP that the docs do not
 * cover shows in the page's docs-gap report.
 *
 * Chromium comes from scripts/ensure-chromium.sh (.ci/run calls it). Without it these tests are
 * skipped on a developer's machine and fail under CI=true.
 */

const chromiumPath = findChromium();
const requireChromium = process.env.CI === 'true';
const skip = chromiumPath === undefined && !requireChromium;

/** A page whose Markdown tries every way to run script; the search for "pelican override" finds it. */
const HOSTILE: Record<string, string> = {
  'zoo/hostile.md': [
    '---',
    'title: "Pelican <script>window.__pwned = \'title\'</script> override"',
    '---',
    '# Pelican override',
    '',
    'The pelican override setting lives here.',
    '',
    "<script>window.__pwned = 'script'</script>",
    '',
    '<img src="x" onerror="window.__pwned = \'onerror\'">',
    '',
    "[Click the pelican](javascript:window.__pwned='link')",
    '',
    '<iframe srcdoc="<script>parent.__pwned=\'iframe\'</script>"></iframe>',
    '',
    '## Pelican override details',
    '',
    'The override has <b onmouseover="window.__pwned=\'hover\'">bold</b> text and <a href="javascript:window.__pwned=\'a\'">a link</a>.',
    '',
    '<svg onload="window.__pwned=\'svg\'"><circle r="5"/></svg>',
    '',
  ].join('\n'),
  'zoo/feeding.md': '# Feeding\n\nThe pelicans are fed at noon.\n',
};

const { serve: serveHttp } = useServedEngine(async () =>
  openEngine(await fixtureIndex({ ...SAMPLE_CORPUS, ...HOSTILE })),
);

async function pwned(page: Page): Promise<unknown> {
  return page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned);
}

describe.skipIf(skip)(
  skip
    ? 'the search page in a browser: SKIPPED, Chromium is not installed (scripts/ensure-chromium.sh installs it)'
    : 'the search page in a browser',
  () => {
    let browser: Browser | undefined;
    const opened: Browser[] = [];
    beforeAll(async () => {
      if (chromiumPath === undefined)
        throw new Error(
          'Chromium is not installed and CI=true: scripts/ensure-chromium.sh installs it (.ci/run calls it)',
        );
      browser = await launchChromium(chromiumPath);
    });
    afterAll(async () => {
      await browser?.close();
      await Promise.all(opened.splice(0).map((b) => b.close()));
    });
    const launch = async (options: Parameters<typeof launchChromium>[1]) => {
      const launched = await launchChromium(chromiumPath!, options);
      opened.push(launched);
      return launched.context;
    };

    it('searches from the page without JavaScript and shows results with their labels, at phone width too', async () => {
      const server = await serveHttp();
      const base = server.url.replace(/\/docs$/, '');
      const context = await launch({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`${base}/`);
      await page.fill('input[name="q"]', 'verify the webhook signature');
      await Promise.all([page.waitForURL(/\?q=verify/), page.press('input[name="q"]', 'Enter')]);
      const results = page.locator('article.result');
      expect(await results.count()).toBeGreaterThan(0);
      expect(await results.first().locator('h3').textContent()).toContain('Webhooks guide');
      expect(await results.first().locator('.label').textContent()).toMatch(/★+ (Excellent match|Very relevant)/);
      expect(await page.locator('.doc-section.best').first().isVisible()).toBe(true);
      expect(await page.locator('.model pre').textContent()).toMatch(
        /^\d+ results? for "verify the webhook signature"/,
      );
      // Nothing wider than the phone's screen: no sideways scrolling.
      expect(await page.locator('html').evaluate((html) => html.scrollWidth)).toBeLessThanOrEqual(390);
      // A long page: the sections the model did not get are named, folded, where they sit.
      await page.goto(`${base}/?q=${encodeURIComponent('zanzibar setting')}`);
      const long = page.locator('article.result', { hasText: 'platform / long.md' });
      expect(await long.locator('.doc-section.best').textContent()).toContain('The zanzibar setting lives here.');
      const folded = long.locator('details.left-out');
      expect(await folded.first().locator('summary').textContent()).toMatch(/^Sections 1–\d+ not sent to the model$/);
      expect(await folded.first().locator('li').first().textContent()).toBe('1. Long Reference');
      expect(await folded.last().locator('li').last().textContent()).toBe('61. Topic 59');
    });

    /** Opens the hostile page's result, hovers and clicks everything in it, and says whether any script ran. */
    async function attack(page: Page, base: string) {
      await page.goto(`${base}/?q=${encodeURIComponent('pelican override')}`);
      const hostile = page.locator('article.result', { hasText: 'zoo / hostile.md' });
      expect(await hostile.count()).toBe(1);
      // Raw HTML is dropped, its text kept: hover where the <b onmouseover> was.
      await hostile.locator('p', { hasText: 'bold' }).first().hover();
      for (const link of await hostile.locator('a').all())
        await link.click({ noWaitAfter: true }).catch(() => undefined);
      return { hostile, ran: await pwned(page) };
    }

    it("runs none of a hostile page's scripts, shown under the page's policy", async () => {
      const base = (await serveHttp()).url.replace(/\/docs$/, '');
      const page = await (await launch({})).newPage();
      const { hostile, ran } = await attack(page, base);
      expect(ran).toBeUndefined();
      // What the index keeps of the payloads (its dialect cleaning drops raw HTML) the page shows as text.
      expect(await page.locator('.model pre').textContent()).toContain("(javascript:window.__pwned='link')");
      expect(await hostile.locator('h3').textContent()).toContain("window.__pwned = 'title'");
    });

    it("puts none of a hostile page's scripts, handlers or script links in the page: the sanitiser alone, policy bypassed", async () => {
      const base = (await serveHttp()).url.replace(/\/docs$/, '');
      const page = await (await launch({ bypassCSP: true })).newPage();
      const { hostile, ran } = await attack(page, base);
      expect(ran).toBeUndefined();
      const dangerous = await hostile.evaluate((root) => ({
        elements: root.querySelectorAll('script, iframe, svg, object, embed').length,
        handlers: [...root.querySelectorAll('*')].filter((e) => [...e.attributes].some((a) => a.name.startsWith('on')))
          .length,
        scriptLinks: root.querySelectorAll('a[href^="javascript:" i]').length,
      }));
      expect(dangerous).toEqual({ elements: 0, handlers: 0, scriptLinks: 0 });
    });

    it('lists in its docs-gap report a question asked over MCP that the docs do not cover', {
      timeout: 120_000,
    }, async () => {
      const indexDir = await fixtureIndex(SAMPLE_CORPUS);
      let running: RunningDocsServer | undefined;
      try {
        running = await serve({
          indexDir,
          server: parseServerOptions({ port: 0 }),
          engine: {},
          searchThreads: 0,
          log: () => undefined,
        });
        const client = await connectV2(running.http.url, { pin: MODERN_VERSION });
        for (const searchTerm of ['banana bread recipe', 'verify the webhook signature'])
          await client.client.callTool({ name: 'SearchDocs', arguments: { searchTerm } });
        await client.close();
        const page = await browser!.context.newPage();
        await page.goto(running.http.url.replace(/\/docs$/, '/'));
        const report = page.getByRole('region', { name: 'Docs-gap report' });
        const uncovered = report.locator('h3', { hasText: 'Questions the docs did not cover' }).locator('+ div table');
        expect(await uncovered.textContent()).toContain('banana bread recipe');
        expect(await uncovered.textContent()).not.toContain('webhook');
        expect(await report.locator('h3', { hasText: 'Most asked' }).locator('+ div table').textContent()).toContain(
          'verify the webhook signature',
        );
        await page.close();
      } finally {
        await running?.close();
      }
    });
  },
);

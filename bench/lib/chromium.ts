import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

/**
 * A real browser for the search page's tests and its screenshot: Debian's Chromium
 * (scripts/ensure-chromium.sh installs it; no browser is ever downloaded), driven headless by
 * playwright-core, each context with a fresh profile. Without Chromium the tests skip with the
 * reason on a developer's machine and fail under CI=true.
 */

/** Chromium at CHROMIUM_PATH, on PATH, or at Debian's /usr/bin/chromium. */
export function findChromium(): string | undefined {
  const candidates = [
    process.env.CHROMIUM_PATH,
    ...(process.env.PATH ?? '')
      .split(delimiter)
      .filter(Boolean)
      .flatMap((dir) => [join(dir, 'chromium'), join(dir, 'chromium-browser')]),
    '/usr/bin/chromium',
  ];
  return candidates.find((path) => {
    if (path === undefined || path === '') return false;
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Flags that work in containers and never reach the network on their own. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface BrowserOptions {
  /** Width and height of the window (default a laptop's 1200×900). */
  viewport?: { width: number; height: number };
  /** Let the page run what its Content-Security-Policy forbids: to test the sanitiser alone. */
  bypassCSP?: boolean;
  /** Off: the page must work as plain HTML. */
  javaScriptEnabled?: boolean;
}

export interface Browser {
  context: BrowserContext;
  /** Closes the browser and removes its profile. */
  close(): Promise<void>;
}

/** A headless Chromium with a fresh profile. */
export async function launchChromium(executablePath: string, options: BrowserOptions = {}): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'svc-docs-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: FLAGS,
    viewport: options.viewport ?? { width: 1200, height: 900 },
    bypassCSP: options.bypassCSP ?? false,
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

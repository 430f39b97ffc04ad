/**
 * Installs this package's own dependencies (`npm ci` here) when they are missing or older than
 * its lockfile. The repository root runs it before its tests, so `npm ci && npm test` at the
 * root tests the platform package too, while the server's own `npm ci` never installs them.
 */
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const installed = join(root, 'node_modules', '.package-lock.json');
const mtime = (file) => statSync(file).mtimeMs;
const stale =
  !existsSync(installed) ||
  mtime(installed) < mtime(join(root, 'package-lock.json')) ||
  mtime(installed) < mtime(join(root, 'package.json'));

/** A line every 10 s while npm works: a quiet step of minutes reads as a hang. */
const PROGRESS_EVERY_MS = 10_000;

if (stale) {
  console.error('@svc-docs/platform: installing its dependencies (npm ci in packages/platform)');
  const started = Date.now();
  const progress = setInterval(() => {
    const seconds = Math.round((Date.now() - started) / 1000);
    console.error(`@svc-docs/platform: still installing its dependencies (${seconds} s so far)`);
  }, PROGRESS_EVERY_MS);
  const child = spawn('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  child.once('error', (error) => {
    clearInterval(progress);
    console.error(`@svc-docs/platform: could not run npm ci: ${error.message}`);
    process.exit(1);
  });
  child.once('close', (code) => {
    clearInterval(progress);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.error(`@svc-docs/platform: ${code === 0 ? 'installed' : 'npm ci failed'} in ${seconds} s`);
    process.exit(code ?? 1);
  });
}

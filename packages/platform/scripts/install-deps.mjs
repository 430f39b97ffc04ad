/**
 * Installs this package's own dependencies (`npm ci` here) when they are missing or older than
 * its lockfile. The repository root runs it before its tests, so `npm ci && npm test` at the
 * root tests the platform package too, while the server's own `npm ci` never installs them.
 */
import { spawnSync } from 'node:child_process';
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

if (stale) {
  console.error('@svc-docs/platform: installing its dependencies (npm ci in packages/platform)');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  process.exit(result.status ?? 1);
}

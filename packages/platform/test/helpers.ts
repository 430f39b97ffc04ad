import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PlatformLogEntry, PlatformLogger } from '../src/index.js';

/** Serves a request listener on an ephemeral 127.0.0.1 port. */
export async function serve(
  listener: RequestListener,
): Promise<{ url: string; server: Server; close: () => Promise<void> }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port on which nothing listens: the platform is "down". */
export async function deadUrl(): Promise<string> {
  const { url, close } = await serve(() => undefined);
  await close();
  return url;
}

export function captureLogs(): { logger: PlatformLogger; entries: PlatformLogEntry[] } {
  const entries: PlatformLogEntry[] = [];
  return { logger: (entry) => entries.push(entry), entries };
}

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-platform-test-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Resolves with the rejection of `promise`, failing if it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject, but it resolved');
}

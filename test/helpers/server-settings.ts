import type { ServerOptions } from '../../src/settings/server-options.js';
import { serveSettings } from '../../src/settings/commands.js';
import type { Env, Flags } from '../../src/settings/values.js';

/** The HTTP server's options `svc-docs serve` would read from these variables and flags. */
export function serverOptionsFromEnv(env: Env, flags: Flags = {}): ServerOptions {
  return serveSettings(flags, env).server;
}

import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import {
  bearerToken,
  parseServerOptions,
  SERVER_OPTION_NAMES,
  type ServerOptions,
  type ServerOptionsInput,
} from './server-options.js';
import { SETTINGS } from './catalogue.js';
import { SettingsError } from './read-value.js';
import { overlay, type Values } from './values.js';

/**
 * `serve`'s settings as the HTTP server's options (src/settings/server-options.ts validates them): every
 * option named like a setting takes its value, the session idle time in seconds becomes
 * milliseconds, and the token comes from wherever it was given.
 */

/** A token is at most 1,024 characters (the server's schema); a file this big is something else. */
const MAX_TOKEN_FILE_BYTES = 64 * 1024;

/**
 * The file's text, if it is a regular file of at most MAX_TOKEN_FILE_BYTES. Opened without
 * blocking and checked on the descriptor: opening a FIFO for reading waits for a writer, so a FIFO
 * given as the token file hung the server with no word.
 */
function readSmallRegularFile(path: string, source: string): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile())
      throw new SettingsError(
        `${source}: the token file ${path} is not a regular file (a FIFO, socket, device or folder): put the token in a file`,
      );
    if (stat.size > MAX_TOKEN_FILE_BYTES)
      throw new SettingsError(
        `${source}: the token file ${path} is over ${MAX_TOKEN_FILE_BYTES} bytes: it should hold the token alone`,
      );
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** The token in `path` (surrounding whitespace dropped); an error names the file, never its content. */
function readTokenFile(path: string, source: string): string {
  let content: string;
  try {
    content = readSmallRegularFile(path, source);
  } catch (error) {
    if (error instanceof SettingsError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new SettingsError(
      `${source}: cannot read the token file ${path} (${code}): create it with the token alone, readable by the server's user`,
    );
  }
  const token = content.trim();
  if (token === '') throw new SettingsError(`${source}: the token file ${path} is empty`);
  // Checked here, so a bad token names its file, not SVC_DOCS_AUTH_TOKEN (issue 40); never its content.
  const checked = bearerToken.safeParse(token);
  if (!checked.success) throw new SettingsError(`${source}: the token in ${path} ${checked.error.issues[0]?.message}`);
  return token;
}

/** One layer's token: given directly, else read from the file it names. */
function tokenOf(layer: Values, fileSource: string): string | undefined {
  if (layer.authToken !== undefined) return layer.authToken;
  return layer.authTokenFile === undefined ? undefined : readTokenFile(layer.authTokenFile, fileSource);
}

/**
 * The server's options from `serve`'s flags and variables: a flag wins over its variable, and a
 * token given directly over a file at the same level.
 */
export function serverOptionsOf(layers: { flags: Values; variables: Values }): ServerOptions {
  const values = overlay(layers.variables, layers.flags);
  const input: Record<string, unknown> = {};
  for (const name of SERVER_OPTION_NAMES) if (name in SETTINGS) input[name] = values[name as keyof Values];
  if (values.sessionIdleSeconds !== undefined) input.sessionIdleMs = values.sessionIdleSeconds * 1000;
  if (values.writeTimeoutSeconds !== undefined) input.writeTimeoutMs = values.writeTimeoutSeconds * 1000;
  input.authToken =
    tokenOf(layers.flags, '--auth-token-file') ?? tokenOf(layers.variables, SETTINGS.authTokenFile.variable);
  for (const name of Object.keys(input)) if (input[name] === undefined) delete input[name];
  return parseServerOptions(input as ServerOptionsInput);
}

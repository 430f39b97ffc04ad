import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import { z } from 'zod';
import { CorpusError } from '../../src/corpus-folder.js';
import { jsonOr } from '../../src/record.js';
import { URL_STYLES } from './page-url.js';
import { readRegularFile, SpecialFileError } from './regular-file.js';

/**
 * A knowledge base's own settings, `kb.json` in its folder, every key optional:
 *   { "name": "Argo CD", "baseUrl": "https://argo-cd.readthedocs.io/en/stable/", "urlStyle": "directory" }
 * `name` is its Source in results; `baseUrl` is where the folder is published, so each result
 * can name its page's public URL (page-url.ts, with `urlStyle`, default "directory").
 */

const CONTROL = /[\p{Cc}\u2028\u2029]/u;
/** In a `u` regex a surrogate class matches only a surrogate that is not half of a pair. */
const LONE_SURROGATE = /\p{Cs}/u;

/** A knowledge-base name: one line without control characters, as any name (declared or inferred) must be. */
export const kbNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .refine((name) => !CONTROL.test(name), 'a name of one line without control characters')
  // JSON can escape half a surrogate pair ("\ud800"); it would be stored as U+FFFD in the
  // index files but as itself in the manifest, so the two would disagree on the name.
  .refine((name) => !LONE_SURROGATE.test(name), 'well-formed text (a lone surrogate escape is not a character)');

/** An absolute http(s) URL with no user name or password in it: it is shown to every client. */
export function isPublicUrl(text: string): boolean {
  const url = URL.parse(text);
  return (url?.protocol === 'https:' || url?.protocol === 'http:') && url.username === '' && url.password === '';
}

const kbConfigSchema = z
  .object({
    name: kbNameSchema.optional(),
    baseUrl: z
      .string()
      .refine(isPublicUrl, 'an absolute http(s) URL without credentials, e.g. https://docs.example.com/guide/')
      .optional(),
    urlStyle: z.enum(URL_STYLES).optional(),
  })
  .strict();
export type KbConfig = z.infer<typeof kbConfigSchema>;

const SHAPE =
  '{ "name": "<one-line string>", "baseUrl": "<http(s) URL>", "urlStyle": "directory|html|plain|source" } (each optional)';

function inside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir + sep);
}

/** The folder's kb.json, or {} when it has none. Throws CorpusError, never quoting the file, when it cannot be used. */
export function readKbConfig(kbDir: string): KbConfig {
  const configPath = join(kbDir, 'kb.json');
  if (!existsSync(configPath)) return {};
  if (lstatSync(configPath).isSymbolicLink() && !inside(realpathSync(configPath), realpathSync(kbDir))) {
    throw new CorpusError(
      `${configPath} is a symbolic link to a file outside its folder, which is never read: replace it with a file { "name": "..." }`,
    );
  }
  let text: string;
  try {
    text = readRegularFile(configPath).toString('utf8');
  } catch (error) {
    // A FIFO would be waited on for ever, a device read without end: refused, as is a folder.
    if (error instanceof SpecialFileError)
      throw new CorpusError(
        `${configPath} is ${error.kind}, not a regular file: replace it with a file { "name": "..." }`,
      );
    throw new CorpusError(`cannot read ${configPath}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  const raw = jsonOr(text, () => new CorpusError(`${configPath} is not valid JSON: expected ${SHAPE}`));
  const parsed = kbConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const why =
      issue?.code === 'unrecognized_keys'
        ? 'it has keys other than "name", "baseUrl" and "urlStyle"'
        : `${issue?.path.join('.') || 'value'}: ${issue?.message ?? 'invalid'}`;
    throw new CorpusError(`${configPath} must be ${SHAPE} (${why})`);
  }
  return parsed.data;
}

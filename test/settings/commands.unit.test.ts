import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';
import { SETTINGS, settingsOf, type SettingName } from '../../src/settings/catalogue.js';
import {
  cacheDirOf,
  configSettings,
  debugRequested,
  indexSettings,
  readingSettings,
  searchSettings,
  serveSettings,
} from '../../src/settings/commands.js';
import { defaultIndexDir, defaultSearchThreads } from '../../src/settings/defaults.js';
import { SettingsError } from '../../src/settings/read-value.js';

/** Each command's settings: read from the flags and variables it is given, its own only, with one rule per kind. */

const COMMANDS = {
  index: indexSettings,
  serve: serveSettings,
  search: searchSettings,
  config: configSettings,
  report: (flags: Parameters<typeof indexSettings>[0], env: Parameters<typeof indexSettings>[1]) =>
    readingSettings('report', flags, env),
};
const { allowRemoteModels, debug, maxFileBytes, parseTimeoutSeconds, searchThreads } = SETTINGS;

describe('settings', () => {
  it('reads settings from the environment it is given, and refuses a bad number with the variable named', () => {
    const env = { [SETTINGS.corpus.variable]: '/a, /b', [debug.variable]: '1', [searchThreads.variable]: '0' };
    expect(serveSettings({}, env)).toMatchObject({ corpusDirs: ['/a', '/b'], corpusGiven: true, searchThreads: 0 });
    expect(indexSettings({}, {}).corpusGiven).toBe(false);
    expect(() => indexSettings({}, { [maxFileBytes.variable]: 'lots' })).toThrow(SettingsError);
    expect(() => indexSettings({}, { [maxFileBytes.variable]: 'lots' })).toThrow(
      /^SVC_DOCS_MAX_FILE_BYTES must be a positive number, got "lots"$/,
    );
    expect(indexSettings({}, { [parseTimeoutSeconds.variable]: '2.5' }).fileLimits).toEqual({
      maxFileBytes: maxFileBytes.default,
      parseTimeoutMs: 2500,
    });
  });

  it('lets a flag win over its variable, and reads it by the same rule', () => {
    const env = { [SETTINGS.port.variable]: '9090', [SETTINGS.vectorCache.variable]: '/env/vectors' };
    expect(serveSettings({ port: '0', vectorCache: '/flag/vectors' }, env)).toMatchObject({
      server: { port: 0 },
      vectorCacheDir: '/flag/vectors',
    });
    expect(serveSettings({}, env).server.port).toBe(9090);
    expect(() => serveSettings({ port: 'abc' }, {})).toThrow(/^--port must be a whole number, got "abc"$/);
    // A repeated list flag, each occurrence possibly comma-separated.
    expect(indexSettings({ corpus: ['/a', '/b,/c'] }, { [SETTINGS.corpus.variable]: '/env' }).corpusDirs).toEqual([
      '/a',
      '/b',
      '/c',
    ]);
    expect(indexSettings({ allowRemoteModels: true }, { [allowRemoteModels.variable]: 'no' }).allowRemoteModels).toBe(
      true,
    );
  });

  it('reads and checks only the settings a command uses', () => {
    const missing = join(tmpdir(), 'svc-docs-no-such-token-file');
    const serverOnly = {
      [SETTINGS.port.variable]: 'abc',
      [SETTINGS.authTokenFile.variable]: missing,
      [searchThreads.variable]: 'many',
    };
    expect(searchSettings({}, serverOnly).maxResults).toBe(SETTINGS.maxResults.default);
    expect(indexSettings({}, serverOnly).corpusGiven).toBe(false);
    // config only asks whether a token is set; it never reads the file.
    expect(configSettings({}, serverOnly).authTokenSet).toBe(true);
    expect(() => serveSettings({}, serverOnly)).toThrow(SettingsError);
    expect(() => serveSettings({}, { [SETTINGS.authTokenFile.variable]: missing })).toThrow(
      /SVC_DOCS_AUTH_TOKEN_FILE: cannot read the token file .* \(ENOENT\)/,
    );
    // A bad token read from a file names the file (and never the token).
    const short = join(tmpdir(), `svc-docs-short-token-${process.pid}`);
    writeFileSync(short, 'tooshort\n');
    expect(() => serveSettings({}, { [SETTINGS.authTokenFile.variable]: short })).toThrow(
      new SettingsError(
        `SVC_DOCS_AUTH_TOKEN_FILE: the token in ${short} is too short: use at least 16 random characters, e.g. the output of \`openssl rand -hex 32\``,
      ),
    );
    // search renders as the server does, with the server's checks of the two settings it reads.
    expect(searchSettings({}, { [SETTINGS.responseBudgetChars.variable]: '8000' }).responseBudgetChars).toBe(8000);
    expect(() => searchSettings({}, { [SETTINGS.responseBudgetChars.variable]: '100' })).toThrow(
      /responseBudgetChars \(SVC_DOCS_RESPONSE_BUDGET_CHARS\)/,
    );
  });

  it('reads every flag variable by one rule, in every command that reads it', () => {
    const flags = (Object.keys(SETTINGS) as SettingName[]).filter((name) => SETTINGS[name].kind === 'boolean');
    expect(flags.length).toBeGreaterThanOrEqual(4);
    const checked: string[] = [];
    for (const [command, parse] of Object.entries(COMMANDS)) {
      for (const name of flags.filter((n) => settingsOf(command as keyof typeof COMMANDS).includes(n))) {
        const { variable } = SETTINGS[name];
        for (const yes of ['1', 'true', 'YES', ' on ']) expect(parse({}, { [variable]: yes }), variable).toBeDefined();
        for (const no of ['0', 'False', 'no', 'off', '']) expect(parse({}, { [variable]: no }), variable).toBeDefined();
        expect(() => parse({}, { [variable]: 'maybe' }), `${command} ${variable}`).toThrow(
          new SettingsError(`${variable} must be 1 or 0 (true/false, yes/no, on/off), got "maybe"`),
        );
        checked.push(`${command} ${variable}`);
      }
    }
    expect(checked).toContain('index SVC_DOCS_ALLOW_REMOTE_MODELS');
    expect(checked).toContain('serve SVC_DOCS_WEB_PAGE');
    expect(indexSettings({}, { [allowRemoteModels.variable]: 'on' }).allowRemoteModels).toBe(true);
    expect(serveSettings({}, { [SETTINGS.webPage.variable]: 'off' }).server.webPage).toBe(false);
  });

  it('asks for the stack trace by the same rule, and never fails doing so', () => {
    expect(debugRequested({ [debug.variable]: 'yes' })).toBe(true);
    expect(debugRequested({ [debug.variable]: 'maybe' })).toBe(false);
    expect(debugRequested({})).toBe(false);
  });

  it('leaves the main thread a core of its own for search workers by default, and never starts none', () => {
    expect([1, 2, 3, 8].map((cores) => defaultSearchThreads(cores))).toEqual([1, 1, 2, 7]);
    expect(serveSettings({}, {}).searchThreads).toBe(Math.max(1, availableParallelism() - 1));
    expect(serveSettings({}, { [searchThreads.variable]: '3' }).searchThreads).toBe(3);
  });

  it('keeps generated files in the cache folder the variable names, else the svc-docs folder .cache', () => {
    const cache = SETTINGS.cacheDir.variable;
    expect(cacheDirOf({ [cache]: ' /srv/cache ' })).toBe('/srv/cache');
    expect(cacheDirOf({ [cache]: '  ' })).toBe(join(projectRoot(), '.cache'));
    expect(cacheDirOf({})).toBe(join(projectRoot(), '.cache'));
    expect(indexSettings({}, { [cache]: '/srv/cache' })).toMatchObject({
      cacheDir: '/srv/cache',
      vectorCacheDir: '/srv/cache/vectors',
    });
  });

  it('gives each corpus its own index folder under the cache, unless one is named', () => {
    const docs = defaultIndexDir(['/srv/docs'], '/cache');
    expect(docs).toMatch(/^\/cache\/indexes\/docs-[0-9a-f]{12}$/);
    // The same folders however they are written; other folders (or more of them) elsewhere.
    expect(defaultIndexDir(['/srv/./docs/'], '/cache')).toBe(docs);
    expect(defaultIndexDir(['/home/docs'], '/cache')).not.toBe(docs);
    expect(defaultIndexDir(['/srv/docs', '/srv/api'], '/cache')).toMatch(/\/indexes\/docs\+api-[0-9a-f]{12}$/);
    expect(defaultIndexDir(['/srv/my docs!'], '/cache')).toMatch(/\/indexes\/my_docs_-[0-9a-f]{12}$/);
    const env = { [SETTINGS.cacheDir.variable]: '/cache', [SETTINGS.corpus.variable]: '/srv/docs' };
    for (const parse of [indexSettings, serveSettings, searchSettings])
      expect(parse({}, env)).toMatchObject({ indexDir: docs });
    expect(indexSettings({}, env).indexIsDefault).toBe(true);
    expect(indexSettings({ corpus: ['/home/docs'] }, env).indexDir).toBe(defaultIndexDir(['/home/docs'], '/cache'));
    expect(serveSettings({}, { ...env, [SETTINGS.index.variable]: '/data/index' })).toMatchObject({
      indexDir: '/data/index',
      indexIsDefault: false,
    });
    expect(indexSettings({ out: '/out' }, env).indexDir).toBe('/out');
    expect(searchSettings({ index: '/elsewhere' }, env).indexDir).toBe('/elsewhere');
  });

  it('reads a token from a file, a token given directly winning over a file at the same level', () => {
    const file = join(tmpdir(), `svc-docs-token-${process.pid}`);
    writeFileSync(file, `${'f'.repeat(20)}\n`);
    const { authToken, authTokenFile } = SETTINGS;
    expect(serveSettings({}, { [authTokenFile.variable]: file }).server.authToken).toBe('f'.repeat(20));
    expect(
      serveSettings({}, { [authTokenFile.variable]: file, [authToken.variable]: 'e'.repeat(20) }).server.authToken,
    ).toBe('e'.repeat(20));
    expect(serveSettings({ authTokenFile: file }, { [authToken.variable]: 'e'.repeat(20) }).server.authToken).toBe(
      'f'.repeat(20),
    );
  });

  it('takes the log format from the flag, then the variable, and refuses any other', () => {
    const variable = SETTINGS.logFormat.variable;
    expect(serveSettings({}, {}).logFormat).toBeUndefined();
    expect(serveSettings({}, { [variable]: 'Pretty' }).logFormat).toBe('pretty');
    expect(serveSettings({ logFormat: 'json' }, { [variable]: 'pretty' }).logFormat).toBe('json');
    expect(() => serveSettings({}, { [variable]: 'yaml' })).toThrow(
      new SettingsError('SVC_DOCS_LOG_FORMAT (--log-format) must be json or pretty, got "yaml"'),
    );
  });
});

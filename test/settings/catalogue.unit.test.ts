import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createProgram } from '../../src/cli/program.js';
import { parseServerOptions, SERVER_OPTION_NAMES } from '../../src/settings/server-options.js';
import { projectRoot } from '../../src/project-root.js';
import {
  type CommandName,
  flagOf,
  type Setting,
  SETTINGS,
  type SettingName,
  settingsOf,
} from '../../src/settings/catalogue.js';
import { replaceSettingsTable, SETTINGS_TABLE_PAGES } from '../../src/settings/table.js';

/** The catalogue is the one list of settings: the docs' table, the flags and the server's defaults follow it. */

const NAMES = Object.keys(SETTINGS) as SettingName[];
const page = readFileSync(join(projectRoot(), 'docs', 'configuration.md'), 'utf8');

/** Flags of one command that are not settings (docs/configuration.md lists them too). */
const COMMAND_FLAGS: Record<CommandName, string[]> = {
  index: ['--ipc'],
  serve: ['--no-build', '--watch'],
  search: ['--limit', '--json', '--kb'],
  config: ['--url', '--auth'],
  report: ['--since', '--limit', '--json'],
  status: ['--json'],
};

describe('the settings catalogue', () => {
  it.each(Object.entries(SETTINGS_TABLE_PAGES))("is %s's table (npm run docs:settings writes it)", (name, settings) => {
    const text = readFileSync(join(projectRoot(), name), 'utf8');
    expect(replaceSettingsTable(text, settings), name).toBe(text);
    for (const setting of settings) expect(text).toContain(`| \`${SETTINGS[setting].variable}\` |`);
  });

  it('names each variable once, every one SVC_DOCS_*, each read by some command', () => {
    const variables = NAMES.map((name) => SETTINGS[name].variable);
    expect(new Set(variables).size).toBe(variables.length);
    for (const name of NAMES) expect(SETTINGS[name].commands.length, name).toBeGreaterThan(0);
  });

  it('gives every command the flags of the settings it reads, and only its own other flags', () => {
    const program = createProgram({});
    for (const command of Object.keys(COMMAND_FLAGS) as CommandName[]) {
      const registered = program.commands.find((c) => c.name() === command)!.options.map((o) => o.long!);
      const settingFlags = settingsOf(command)
        .map((name) => flagOf(name, command)?.split(' ')[0])
        .filter((flag) => flag !== undefined);
      expect(registered.sort(), command).toEqual([...settingFlags, ...COMMAND_FLAGS[command]].sort());
      for (const flag of COMMAND_FLAGS[command]) expect(page, flag).toContain(`${command} ${flag}`);
    }
  });

  it("sets the HTTP server's defaults, option by option", () => {
    const defaults = parseServerOptions({});
    const defaultOf = (name: string) => (SETTINGS[name as SettingName] as Setting | undefined)?.default;
    // The OAuth scope's default is applied where a token is checked (oauthConfigOf), not in the options.
    const checked = SERVER_OPTION_NAMES.filter((name) => name !== 'oauthScope' && defaultOf(name) !== undefined);
    expect(checked.length).toBeGreaterThanOrEqual(9);
    for (const name of checked) expect(defaults[name], name).toEqual(defaultOf(name));
    expect(defaults.sessionIdleMs).toBe(SETTINGS.sessionIdleSeconds.default * 1000);
  });
});

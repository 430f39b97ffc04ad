import { type CommandName, flagOf, type Setting, SETTINGS, type SettingName } from './catalogue.js';

/** The configuration tables of docs/configuration.md and README.md, written from the catalogue (a test checks both pages). */

/** The settings a new user meets first: the README's table. docs/configuration.md lists every one. */
const FIRST_SETTINGS: readonly SettingName[] = [
  'corpus',
  'index',
  'model',
  'cacheDir',
  'host',
  'port',
  'allowedHosts',
  'authToken',
  'authTokenFile',
  'oauthIssuer',
  'responseBudgetChars',
  'logFormat',
  'logQueries',
];

/** The pages that hold a table between its markers (relative to the svc-docs folder), with the settings each lists. */
export const SETTINGS_TABLE_PAGES: Readonly<Record<string, readonly SettingName[]>> = {
  'docs/configuration.md': Object.keys(SETTINGS) as SettingName[],
  'README.md': FIRST_SETTINGS,
};

/** A setting's default as the docs and the help show it. */
export function shownDefault(name: SettingName): string {
  const setting: Setting = SETTINGS[name];
  if (setting.shown !== undefined) return setting.shown;
  const value = setting.default;
  if (typeof value === 'boolean') return value ? '`1` (on)' : '`0` (off)';
  return `\`${Array.isArray(value) ? value.join(',') : String(value)}\``;
}

function flagsOf(name: SettingName): string {
  const setting: Setting = SETTINGS[name];
  const byCommand = new Map<string, CommandName[]>();
  for (const command of setting.commands) {
    const flag = flagOf(name, command)?.split(' ')[0];
    if (flag !== undefined) byCommand.set(flag, [...(byCommand.get(flag) ?? []), command]);
  }
  // One flag for every command that reads the setting is shown bare; otherwise with its commands.
  if (byCommand.size === 1 && [...byCommand.values()][0]!.length === setting.commands.length)
    return `\`${[...byCommand.keys()][0]}\``;
  return [...byCommand].map(([flag, commands]) => `\`${flag}\` (${commands.join(', ')})`).join(', ') || '—';
}

export function settingsTable(names: readonly SettingName[]): string {
  const rows = names.map((name) => {
    const setting: Setting = SETTINGS[name];
    const cells = [
      `\`${setting.variable}\``,
      flagsOf(name),
      shownDefault(name),
      setting.meaning,
      setting.commands.join(', '),
    ];
    return `| ${cells.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`;
  });
  return ['| Variable | Flag | Default | Meaning | Read by |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}

const START = '<!-- settings table: written by `npm run docs:settings` from src/settings/catalogue.ts -->';
const END = '<!-- end of settings table -->';

/** `page` with the text between its table markers replaced by the catalogue's table of `names`. */
export function replaceSettingsTable(page: string, names: readonly SettingName[]): string {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`the page has no settings table markers (${START} … ${END})`);
  return `${page.slice(0, start + START.length)}\n${settingsTable(names)}\n${page.slice(end)}`;
}

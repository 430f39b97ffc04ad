import { type CommandName, flagOf, SETTINGS, type SettingName, settingsOf } from './catalogue.js';
import { readFlag, readVariable, type ValueOf } from './read-value.js';

/**
 * Reading a command's settings: each from its flag (as commander hands it over) and from its
 * variable, by its kind. Only the command's own settings are read, so a variable that only
 * another command uses is never looked at (`SVC_DOCS_PORT=abc svc-docs search` works).
 */

/** The environment, or any map of variables: the CLI entry hands the process's own in, once. */
export type Env = Readonly<Record<string, string | undefined>>;

/** Commander's parsed flags, by attribute name (`--allow-remote-models` → allowRemoteModels). */
export type Flags = Readonly<Record<string, unknown>>;

/** Values read, by setting; undefined when not given (the default is applied where it is used). */
export type Values = { -readonly [N in SettingName]?: ValueOf<(typeof SETTINGS)[N]['kind']> };

/** Commander's attribute name for a flag: `--auth-token-file <path>` → authTokenFile. */
export function attributeOf(flag: string): string {
  return flagName(flag)
    .replace(/^--/, '')
    .replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

function flagName(flag: string): string {
  return flag.split(' ')[0]!;
}

/** The command's settings given as flags. */
export function readFlags(command: CommandName, flags: Flags): Values {
  const values: Record<string, unknown> = {};
  for (const name of settingsOf(command)) {
    const flag = flagOf(name, command);
    if (flag !== undefined) values[name] = readFlag(SETTINGS[name].kind, flagName(flag), flags[attributeOf(flag)]);
  }
  return values as Values;
}

/** The command's settings given as variables. */
export function readVariables(command: CommandName, env: Env): Values {
  const values: Record<string, unknown> = {};
  for (const name of settingsOf(command))
    values[name] = readVariable(SETTINGS[name].kind, SETTINGS[name].variable, env);
  return values as Values;
}

/** Both, a flag winning over its variable. */
export function readValues(command: CommandName, flags: Flags, env: Env): Values {
  return overlay(readVariables(command, env), readFlags(command, flags));
}

/** `under` with the values `over` gives on top. */
export function overlay(under: Values, over: Values): Values {
  const values: Record<string, unknown> = { ...under };
  for (const [name, value] of Object.entries(over)) if (value !== undefined) values[name] = value;
  return values as Values;
}

/** Variables svc-docs' own scripts read (scripts/use-node.sh), not settings. */
const SCRIPT_VARIABLES = new Set(['SVC_DOCS_NODE_MAJOR']);

/**
 * SVC_DOCS_* variables that name no setting: a typo, or a setting since removed (issue 41 removed
 * SVC_DOCS_STRUCTURED_OUTPUT and SVC_DOCS_READ_PAGE_TOOL). Read by no command, they would be
 * ignored without a word.
 */
export function unknownVariables(env: Env): string[] {
  const known = new Set<string>(Object.values(SETTINGS).map((s) => s.variable));
  return Object.keys(env)
    .filter((name) => name.startsWith('SVC_DOCS_') && !known.has(name) && !SCRIPT_VARIABLES.has(name))
    .sort();
}

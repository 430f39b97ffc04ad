import { type Command, Option } from 'commander';
import { type CommandName, flagOf, SETTINGS, settingsOf } from './catalogue.js';
import { shownDefault } from './table.js';

/**
 * A command's setting flags, registered from the catalogue: each with its meaning, its variable
 * and its default in the help. Values stay text here and are read by the same rules as the
 * variables (values.ts), so a bad flag and a bad variable get the same one-line error.
 */
export function addSettingFlags(command: Command, name: CommandName): Command {
  for (const setting of settingsOf(name)) {
    const flag = flagOf(setting, name);
    if (flag === undefined) continue;
    const { kind, variable, meaning } = SETTINGS[setting];
    // The catalogue's text is Markdown for the docs page; the help is plain.
    const help = `${meaning} (or set ${variable}; default: ${shownDefault(setting)})`.replaceAll('`', '');
    const option = new Option(flag, help);
    // A list flag repeats (`--corpus a --corpus b`); each occurrence may also be comma-separated.
    if (kind === 'list') option.argParser((value: string, previous: string[] = []) => [...previous, value]);
    command.addOption(option);
  }
  return command;
}

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createProgram } from '../../src/cli/program.js';
import { projectRoot } from '../../src/project-root.js';

/**
 * README.md stays a front door that does what it says: at most 250 lines, and every command in
 * its shell blocks is one the project has (a script of package.json, a file, an svc-docs command
 * with flags it takes, a docker line the container test runs from docs/docker.md). A command the
 * test does not know fails it, so a new kind of command is checked before it is shown.
 */

const MAX_LINES = 250;
const root = projectRoot();
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const scripts: Record<string, string> = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
const dockerPage = readFileSync(join(root, 'docs', 'docker.md'), 'utf8');
const program = createProgram({});

/** The commands of the page's `sh` blocks: continuation lines joined, comments dropped, split at && ; |. */
function shellCommands(page: string): string[] {
  const blocks = [...page.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  return blocks.flatMap((block) =>
    block
      .replace(/\\\n\s*/g, ' ')
      .split('\n')
      .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
      .filter((line) => line !== '')
      .flatMap((line) => line.split(/\s*(?:&&|;|\|)\s*/))
      .map((command) => command.trim()),
  );
}

/** Words of a command, without leading VAR=value assignments; quotes are kept out of flag names. */
function wordsOf(command: string): string[] {
  const words = command.split(/\s+/);
  while (words.length > 0 && /^[A-Z_][A-Z0-9_]*=/.test(words[0]!)) words.shift();
  return words;
}

/** Problems with an `svc-docs` command line: an unknown command, or a flag that command does not take. */
function cliProblems(args: readonly string[]): string[] {
  const [name, ...rest] = args;
  const command = program.commands.find((c) => c.name() === name);
  if (command === undefined) return [`svc-docs has no command ${name}`];
  const flags = new Set([...command.options.map((o) => o.long), '--help']);
  return rest
    .filter((arg) => arg.startsWith('--'))
    .map((arg) => arg.split('=')[0]!)
    .filter((flag) => !flags.has(flag))
    .map((flag) => `svc-docs ${name} has no flag ${flag}`);
}

/** Why `command` would not run as written in this repository, or [] when it would. */
function problems(command: string): string[] {
  const [first, ...args] = wordsOf(command);
  if (first === '.' || first === 'source') return existsSync(join(root, args[0]!)) ? [] : [`${args[0]} does not exist`];
  if (first === 'npm') {
    const [verb, script, dashes, ...rest] = args;
    if (verb === 'ci') return [];
    if (verb === 'start' || verb === 'test') return scripts[verb] ? [] : [`package.json has no ${verb} script`];
    if (verb !== 'run' || script === undefined || scripts[script] === undefined)
      return [`npm ${args.join(' ')}: no such script`];
    return script === 'svc-docs' && dashes === '--' ? cliProblems(rest) : [];
  }
  if (first === 'node' && args[0] === 'dist/src/cli.js') return cliProblems(args.slice(1));
  if (first === 'npx' && args[0] === 'tsx')
    return existsSync(join(root, args[1]!)) ? [] : [`${args[1]} does not exist`];
  if (first === 'docker') return dockerPage.includes(command) ? [] : [`not a line of docs/docker.md: ${command}`];
  return [`the README test does not know how to check: ${command}`];
}

describe('README.md', () => {
  it(`is a front door of at most ${MAX_LINES} lines`, () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(MAX_LINES);
  });

  it('opens with the two commands: one serves, one tests', () => {
    const first = shellCommands(readme.slice(0, readme.indexOf('\n## ')));
    expect(first).toEqual([
      '. scripts/use-node.sh',
      'npm ci',
      'npm start',
      '. scripts/use-node.sh',
      'npm ci',
      'npm test',
    ]);
  });

  it('shows only commands that run as written here', () => {
    const commands = shellCommands(readme);
    expect(commands.length).toBeGreaterThan(8);
    expect(commands.flatMap(problems)).toEqual([]);
  });

  it('names only svc-docs commands and npm scripts that exist, in its text too', () => {
    const named = [...readme.matchAll(/`(?:npm run svc-docs -- |svc-docs |node dist\/src\/cli\.js )([^`]+)`/g)]
      .map((m) => m[1]!.split(/\s+/))
      // `svc-docs <command>` is a placeholder, not a command.
      .filter((words) => /^[a-z][\w-]*$/.test(words[0]!));
    expect(named.length).toBeGreaterThan(4);
    expect(named.flatMap(cliProblems)).toEqual([]);
    const npmScripts = [...readme.matchAll(/`npm run ([\w:-]+)/g)].map((m) => m[1]!);
    expect(npmScripts.filter((s) => scripts[s] === undefined)).toEqual([]);
  });

  it('checks what it claims to: a wrong flag, command, script or docker line is a problem', () => {
    expect(problems('npm run svc-docs -- serve --corpus ./docs --no-such-flag')).toHaveLength(1);
    expect(problems('npm run svc-docs -- serve-all')).toHaveLength(1);
    expect(problems('npm run test:nothing')).toHaveLength(1);
    expect(problems('docker run --rm svc-docs:nothing')).toHaveLength(1);
    expect(problems('make all')).toHaveLength(1);
  });
});

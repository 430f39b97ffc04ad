import type { LogFormat } from '../settings/observability.js';
import { jsonOf, type LogLine } from './log.js';
import { terminalText } from './terminal-text.js';

/**
 * The log for people: the same lines as the JSON log, each shown as `time LEVEL event message
 * key=value …` (colours on a terminal). A view of the JSON line, made after secrets were removed
 * from it, so it can show nothing the JSON log would not.
 */

const LEVEL_COLOURS: Record<string, string> = { debug: '90', info: '36', warn: '33', error: '31' };

function paint(text: string, code: string | undefined, colour: boolean): string {
  return colour && code !== undefined ? `\u001b[${code}m${text}\u001b[0m` : text;
}

/** A field's value; a string with control characters is quoted and escaped like any other (terminal-text.ts). */
function shown(value: unknown): string {
  if (typeof value === 'string' && /^[^\s"=]+$/.test(value) && terminalText(value) === value) return value;
  return terminalText(JSON.stringify(value));
}

/** One JSON log line as a line for people; a line that is not a JSON object is shown as it is. */
export function prettyLine(line: string, colour = false): string {
  const entry = jsonOf(line);
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return terminalText(line);
  const { time, level, event, message, ...fields } = entry as Record<string, unknown>;
  const clock = typeof time === 'string' ? time.slice(11, 23) : '';
  const levelText = typeof level === 'string' ? level.toUpperCase().padEnd(5) : 'INFO ';
  const head = [
    clock,
    paint(levelText, LEVEL_COLOURS[String(level)], colour),
    paint(terminalText(String(event ?? '')), '1', colour),
    ...(typeof message === 'string' ? [terminalText(message)] : []),
  ];
  const rest = Object.entries(fields).map(
    ([key, value]) => `${paint(terminalText(key), '90', colour)}=${shown(value)}`,
  );
  return [...head, ...rest].filter((part) => part !== '').join(' ');
}

/** Pretty when asked, else JSON; unset: pretty on a terminal, JSON otherwise (files, containers, collectors). */
export function chooseLogFormat(asked: LogFormat | undefined, stream: { isTTY?: boolean }): LogFormat {
  return asked ?? (stream.isTTY === true ? 'pretty' : 'json');
}

/** The sink writing each line to `stream` in `format`. */
export function logWriter(format: LogFormat, stream: NodeJS.WritableStream & { isTTY?: boolean }): LogLine {
  if (format === 'json') return (line) => stream.write(`${line}\n`);
  const colour = stream.isTTY === true;
  return (line) => stream.write(`${prettyLine(line, colour)}\n`);
}
